package io.kubevirt.hco.core;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The gate decision, a pure function of one {@link GateInput}. It opens only when every rule of
 * the gate's contract (docs/architecture.md) holds on the snapshot; anything missing, unknown or
 * failing closes it. It never throws: an unexpected failure becomes {@link GateReason#EvaluationError}.
 */
public final class GateEvaluator {

    public static final String HYPERCONVERGED = "HyperConverged";
    public static final String OPERATOR = "operator";

    private GateEvaluator() {
    }

    public static Assessment assess(GateInput input) {
        try {
            return assessUnchecked(input);
        } catch (RuntimeException e) {
            String message = "evaluation failed: " + e;
            return new Assessment(GateReason.EvaluationError, message,
                    List.of(new Blocker(OPERATOR, GateReason.EvaluationError, message)),
                    UpgradeState.of(null, input == null ? null : input.operatorVersion()), false);
        }
    }

    private static Assessment assessUnchecked(GateInput input) {
        HyperConvergedObservation hco = input.hyperConverged();
        UpgradeState upgrade = UpgradeState.of(hco.present() ? hco.recordedOperatorVersion() : null,
                input.operatorVersion());

        List<Blocker> componentBlockers = new ArrayList<>();
        for (GateInput.Component c : input.components()) {
            ComponentHealth.evaluate(c.expectation(), c.observation()).ifPresent(componentBlockers::add);
        }
        List<Blocker> blockers = new ArrayList<>();
        Blocker headline = headline(input, upgrade, componentBlockers);
        if (headline != null && !componentBlockers.contains(headline)) {
            blockers.add(headline);
        }
        blockers.addAll(componentBlockers);

        boolean converged = hco.present() && !hco.deleting() && componentBlockers.isEmpty()
                && input.evaluationError() == null && !input.components().isEmpty();
        if (headline != null) {
            return new Assessment(headline.reason(), headline.describe(), blockers, upgrade, converged);
        }
        if (!hco.present()) {
            return new Assessment(GateReason.NoStackInstalled,
                    "no HyperConverged and no component CR exist: there is nothing an upgrade could interrupt",
                    List.of(), upgrade, false);
        }
        return new Assessment(GateReason.AsExpected, "every component converged at its expected version",
                List.of(), upgrade, converged);
    }

    /** The first rule that fails, in the order an operator reads them; null when all hold. */
    private static Blocker headline(GateInput input, UpgradeState upgrade, List<Blocker> componentBlockers) {
        if (input.evaluationError() != null) {
            return new Blocker(OPERATOR, GateReason.EvaluationError, input.evaluationError());
        }
        if (input.operatorVersion() == null || input.operatorVersion().isBlank()) {
            return new Blocker(OPERATOR, GateReason.EvaluationError,
                    "the operator's own version is unknown: set OPERATOR_VERSION");
        }
        if (!input.fullReconcileDone()) {
            return new Blocker(OPERATOR, GateReason.Initializing,
                    "version " + input.operatorVersion() + " has not completed its first full reconcile yet");
        }
        if (!input.leader()) {
            return new Blocker(OPERATOR, GateReason.Initializing, "this replica does not hold leadership");
        }
        HyperConvergedObservation hco = input.hyperConverged();
        if (!hco.present()) {
            List<String> existing = input.components().stream().filter(c -> c.observation().present())
                    .map(c -> c.expectation().component()).collect(Collectors.toList());
            if (existing.isEmpty()) {
                return null;
            }
            return new Blocker(HYPERCONVERGED, GateReason.HyperConvergedMissing,
                    "the HyperConverged CR is missing while component CRs still exist: " + String.join(", ", existing));
        }
        if (hco.deleting()) {
            return new Blocker(HYPERCONVERGED, GateReason.HyperConvergedMissing, "the HyperConverged CR is being deleted");
        }
        if (hco.observedGeneration() == null || hco.observedGeneration() != hco.generation()) {
            return new Blocker(HYPERCONVERGED, GateReason.HyperConvergedNotObserved, "generation " + hco.generation()
                    + " of the HyperConverged spec has not been applied (observed " + hco.observedGeneration() + ")");
        }
        if (upgrade.phase() == UpgradeState.Phase.UPGRADING) {
            String waiting = componentBlockers.isEmpty() ? "recording the new version"
                    : "waiting for " + componentBlockers.get(0).subject() + " (" + componentBlockers.get(0).reason()
                            + ": " + componentBlockers.get(0).message() + ")";
            return new Blocker(OPERATOR, GateReason.UpgradeInProgress,
                    "upgrade from " + upgrade.fromVersion() + " to " + upgrade.toVersion() + " in progress; " + waiting);
        }
        if (!componentBlockers.isEmpty()) {
            return componentBlockers.get(0);
        }
        if (input.components().isEmpty()) {
            return new Blocker(OPERATOR, GateReason.EvaluationError, "no component descriptors are configured");
        }
        if (upgrade.phase() == UpgradeState.Phase.INSTALLING) {
            return new Blocker(OPERATOR, GateReason.UpgradeInProgress,
                    "installation of version " + upgrade.toVersion() + " converged; recording the version");
        }
        return null;
    }
}
