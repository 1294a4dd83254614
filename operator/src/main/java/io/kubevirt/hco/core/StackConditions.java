package io.kubevirt.hco.core;

import java.util.List;
import java.util.Optional;

/**
 * Summarizes the stack into the HyperConverged conditions (cluster-api's "aggregate" verb): one
 * condition type across all components, with each type's polarity, the first offender named. A
 * component that reports nothing counts against every condition, never for it.
 */
public final class StackConditions {

    public static final String RECONCILE_COMPLETE = "ReconcileComplete";
    public static final String AVAILABLE = "Available";
    public static final String PROGRESSING = "Progressing";
    public static final String DEGRADED = "Degraded";
    public static final String UPGRADEABLE = "Upgradeable";

    private StackConditions() {
    }

    public static List<Condition> summarize(GateInput input, GateDecision decision) {
        return List.of(
                input.evaluationError() == null
                        ? condition(RECONCILE_COMPLETE, Condition.TRUE, "ReconcileCompleted", "reconcile completed")
                        : condition(RECONCILE_COMPLETE, Condition.FALSE, "ReconcileFailed", input.evaluationError()),
                available(input),
                progressing(input, decision),
                degraded(input),
                condition(UPGRADEABLE, decision.upgradeable() ? Condition.TRUE : Condition.FALSE,
                        decision.reason().name(), decision.message()));
    }

    private static Condition available(GateInput input) {
        return firstWhere(input, ComponentHealth.AVAILABLE, false)
                .map(c -> condition(AVAILABLE, Condition.FALSE, "ComponentUnavailable", c))
                .orElse(condition(AVAILABLE, Condition.TRUE, "AsExpected", "every component is available"));
    }

    private static Condition progressing(GateInput input, GateDecision decision) {
        UpgradeState upgrade = decision.assessment().upgrade();
        if (upgrade.phase() == UpgradeState.Phase.UPGRADING) {
            return condition(PROGRESSING, Condition.TRUE, "UpgradeInProgress",
                    "upgrading from " + upgrade.fromVersion() + " to " + upgrade.toVersion());
        }
        return firstWhere(input, ComponentHealth.PROGRESSING, true)
                .map(c -> condition(PROGRESSING, Condition.TRUE, "ComponentProgressing", c))
                .orElse(condition(PROGRESSING, Condition.FALSE, "AsExpected", "no component is progressing"));
    }

    private static Condition degraded(GateInput input) {
        return firstWhere(input, ComponentHealth.DEGRADED, true)
                .map(c -> condition(DEGRADED, Condition.TRUE, "ComponentDegraded", c))
                .orElse(condition(DEGRADED, Condition.FALSE, "AsExpected", "no component is degraded"));
    }

    /**
     * The first component whose condition of {@code type} is not at its good value; a missing or
     * unreadable condition is not good. {@code badWhenTrue} gives the type's polarity.
     */
    private static Optional<String> firstWhere(GateInput input, String type, boolean badWhenTrue) {
        for (GateInput.Component c : input.components()) {
            ComponentObservation seen = c.observation();
            String name = c.expectation().component();
            Condition cond = seen.present() && seen.problem() == null ? seen.condition(type) : null;
            if (cond == null) {
                return Optional.of(name + " has not reported " + type);
            }
            boolean good = badWhenTrue ? cond.isFalse() : cond.isTrue();
            if (!good) {
                return Optional.of(name + " reports " + type + "=" + cond.status()
                        + (cond.message() == null ? "" : ": " + cond.message()));
            }
        }
        return Optional.empty();
    }

    private static Condition condition(String type, String status, String reason, String message) {
        return new Condition(type, status, reason, message, null, null);
    }
}
