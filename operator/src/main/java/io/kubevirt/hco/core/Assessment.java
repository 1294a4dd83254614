package io.kubevirt.hco.core;

import java.util.List;

/**
 * The gate's verdict on one snapshot, before the stabilization window is applied.
 *
 * @param reason the headline reason; open reasons still have to last for the window
 * @param blockers every blocker found, component blockers included, in descriptor order
 * @param componentsConverged every component converged at its expected version (the upgrade may be recorded)
 */
public record Assessment(GateReason reason, String message, List<Blocker> blockers, UpgradeState upgrade,
        boolean componentsConverged) {

    public Assessment {
        blockers = List.copyOf(blockers);
    }

    /** The blocker naming this component (or other subject); null when it blocks nothing. */
    public Blocker blockerOf(String subject) {
        return blockers.stream().filter(b -> b.subject().equals(subject)).findFirst().orElse(null);
    }

    public boolean open() {
        return reason.opensGate();
    }
}
