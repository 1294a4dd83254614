package io.kubevirt.hco.core;

import java.time.Instant;
import java.util.List;

/**
 * One immutable snapshot: everything the gate decision may look at. The decision reads nothing else.
 *
 * @param fullReconcileDone whether this process completed a full reconcile of every component since it started
 * @param leader whether this process holds leadership
 * @param evaluationError a failure met while building the snapshot (null when none); it closes the gate
 */
public record GateInput(Instant now, String operatorVersion, boolean fullReconcileDone, boolean leader,
        HyperConvergedObservation hyperConverged, List<Component> components, String evaluationError) {

    public GateInput {
        components = components == null ? List.of() : List.copyOf(components);
    }

    /** A component's expectation paired with what the snapshot shows of it. */
    public record Component(ComponentExpectation expectation, ComponentObservation observation) {
    }

    public GateInput withHyperConverged(HyperConvergedObservation hco) {
        return new GateInput(now, operatorVersion, fullReconcileDone, leader, hco, components, evaluationError);
    }

    /** The same snapshot, closed by a failure met while taking it. */
    public GateInput withEvaluationError(String error) {
        return new GateInput(now, operatorVersion, fullReconcileDone, leader, hyperConverged, components, error);
    }

    public GateInput at(Instant time) {
        return new GateInput(time, operatorVersion, fullReconcileDone, leader, hyperConverged, components, evaluationError);
    }
}
