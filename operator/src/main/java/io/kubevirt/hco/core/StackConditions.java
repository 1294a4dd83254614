package io.kubevirt.hco.core;

import static io.kubevirt.hco.core.ConditionTypes.AVAILABLE;
import static io.kubevirt.hco.core.ConditionTypes.DEGRADED;
import static io.kubevirt.hco.core.ConditionTypes.PROGRESSING;
import static io.kubevirt.hco.core.ConditionTypes.RECONCILE_COMPLETE;
import static io.kubevirt.hco.core.ConditionTypes.TAINTED_CONFIGURATION;
import static io.kubevirt.hco.core.ConditionTypes.UNAPPLIED_FIELDS;
import static io.kubevirt.hco.core.ConditionTypes.UPGRADEABLE;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The one aggregator of the HyperConverged conditions (cluster-api's "aggregate" verb): each type
 * across all components with its polarity, every offender listed, plus what the spec itself says
 * (patch annotations, fields accepted but not applied). A component that reports nothing counts
 * against every condition, never for it. Transition times and generations are stamped by the
 * status writer, in one place.
 */
public final class StackConditions {

    /**
     * What the HyperConverged's own spec and annotations say, beside the stack's health.
     *
     * @param patchAnnotations the JSON patch annotations present (upstream's TaintedConfiguration)
     * @param unappliedFields upstream fields set but not applied, with why
     */
    public record SpecNotes(List<String> patchAnnotations, Map<String, String> unappliedFields) {
        public static final SpecNotes NONE = new SpecNotes(List.of(), Map.of());
    }

    private StackConditions() {
    }

    /** The stack's conditions (ReconcileComplete, Available, Progressing, Degraded, Upgradeable). */
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

    /** {@code summary} and the conditions {@code notes} call for (each present only while True). */
    public static List<Condition> withSpecNotes(List<Condition> summary, SpecNotes notes) {
        List<Condition> out = new ArrayList<>(summary);
        if (!notes.unappliedFields().isEmpty()) {
            out.add(condition(UNAPPLIED_FIELDS, Condition.TRUE, "AcceptedNotApplied",
                    "accepted but not applied by this operator: " + notes.unappliedFields().entrySet().stream()
                            .map(f -> f.getKey() + " (" + f.getValue() + ")").collect(Collectors.joining("; "))));
        }
        if (!notes.patchAnnotations().isEmpty()) {
            out.add(condition(TAINTED_CONFIGURATION, Condition.TRUE, "UnsupportedFeatureAnnotation",
                    "Unsupported feature was activated via an HCO annotation: " + String.join(", ", notes.patchAnnotations())));
        }
        return out;
    }

    private static Condition available(GateInput input) {
        List<String> offenders = offenders(input, AVAILABLE, false);
        return offenders.isEmpty() ? condition(AVAILABLE, Condition.TRUE, "AsExpected", "every component is available")
                : condition(AVAILABLE, Condition.FALSE, "ComponentUnavailable", String.join("; ", offenders));
    }

    private static Condition progressing(GateInput input, GateDecision decision) {
        UpgradeState upgrade = decision.assessment().upgrade();
        if (upgrade.phase() == UpgradeState.Phase.UPGRADING) {
            return condition(PROGRESSING, Condition.TRUE, "UpgradeInProgress",
                    "upgrading from " + upgrade.fromVersion() + " to " + upgrade.toVersion());
        }
        List<String> offenders = offenders(input, PROGRESSING, true);
        return offenders.isEmpty() ? condition(PROGRESSING, Condition.FALSE, "AsExpected", "no component is progressing")
                : condition(PROGRESSING, Condition.TRUE, "ComponentProgressing", String.join("; ", offenders));
    }

    private static Condition degraded(GateInput input) {
        List<String> offenders = offenders(input, DEGRADED, true);
        return offenders.isEmpty() ? condition(DEGRADED, Condition.FALSE, "AsExpected", "no component is degraded")
                : condition(DEGRADED, Condition.TRUE, "ComponentDegraded", String.join("; ", offenders));
    }

    /**
     * Every component whose condition of {@code type} is not at its good value, and why; a missing
     * or unreadable condition is not good. {@code badWhenTrue} gives the type's polarity.
     */
    private static List<String> offenders(GateInput input, String type, boolean badWhenTrue) {
        List<String> out = new ArrayList<>();
        for (GateInput.Component c : input.components()) {
            ComponentObservation seen = c.observation();
            String name = c.expectation().component();
            Condition cond = seen.present() && seen.problem() == null ? seen.condition(type) : null;
            if (cond == null) {
                out.add(name + " has not reported " + type);
            } else if (badWhenTrue ? !cond.isFalse() : !cond.isTrue()) {
                out.add(name + " reports " + type + "=" + cond.status() + (cond.message() == null ? "" : ": " + cond.message()));
            }
        }
        return out;
    }

    private static Condition condition(String type, String status, String reason, String message) {
        return new Condition(type, status, reason, message, null, null);
    }
}
