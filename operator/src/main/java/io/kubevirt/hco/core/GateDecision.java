package io.kubevirt.hco.core;

import java.time.Duration;
import java.util.List;

/**
 * What the gate says after the stabilization window: the value OLM will read.
 *
 * @param recheckAfter when the decision must be taken again even without any change (window running); null when not
 * @param openSince since when the assessment has been continuously open (null when closed): carry it to the next call
 */
public record GateDecision(boolean upgradeable, GateReason reason, String message, List<Blocker> blockers,
        Assessment assessment, Duration recheckAfter, java.time.Instant openSince) {

    public GateDecision {
        blockers = List.copyOf(blockers);
    }
}
