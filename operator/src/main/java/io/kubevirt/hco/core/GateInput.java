package io.kubevirt.hco.core;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One immutable snapshot: everything the gate decision may look at. The decision reads nothing else.
 *
 * @param fullReconcileDone whether this process completed a full reconcile of every component since it started
 * @param leader whether this process holds leadership
 * @param evaluationError a failure met while building the snapshot (null when none); it closes the gate
 * @param notInstalled the components that are not part of this stack (name → why), never waited on
 */
public record GateInput(Instant now, String operatorVersion, boolean fullReconcileDone, boolean leader,
        HyperConvergedObservation hyperConverged, List<Component> components, String evaluationError,
        Map<String, String> notInstalled) {

    public GateInput {
        components = components == null ? List.of() : List.copyOf(components);
        notInstalled = notInstalled == null ? Map.of() : Map.copyOf(notInstalled);
    }

    /** A snapshot of a stack in which every known component is installed. */
    public GateInput(Instant now, String operatorVersion, boolean fullReconcileDone, boolean leader,
            HyperConvergedObservation hyperConverged, List<Component> components, String evaluationError) {
        this(now, operatorVersion, fullReconcileDone, leader, hyperConverged, components, evaluationError, Map.of());
    }

    /** A component's expectation paired with what the snapshot shows of it. */
    public record Component(ComponentExpectation expectation, ComponentObservation observation) {
    }

    public GateInput withHyperConverged(HyperConvergedObservation hco) {
        return new GateInput(now, operatorVersion, fullReconcileDone, leader, hco, components, evaluationError, notInstalled);
    }

    /**
     * The same snapshot with one component's CR as newly seen. Its spec state stays as the snapshot
     * judged it (judging it again needs the desired spec, which only a pass derives); a component not
     * in the snapshot leaves it unchanged.
     */
    public GateInput withComponentSeen(String component, ComponentObservation seen) {
        List<Component> changed = new java.util.ArrayList<>(components.size());
        for (Component c : components) {
            changed.add(c.expectation().component().equals(component)
                    ? new Component(c.expectation(), seen.withSpec(c.observation().spec()))
                    : c);
        }
        return new GateInput(now, operatorVersion, fullReconcileDone, leader, hyperConverged, changed, evaluationError,
                notInstalled);
    }

    /** The same snapshot, closed by a failure met while taking it. */
    public GateInput withEvaluationError(String error) {
        return new GateInput(now, operatorVersion, fullReconcileDone, leader, hyperConverged, components, error, notInstalled);
    }

    public GateInput at(Instant time) {
        return new GateInput(time, operatorVersion, fullReconcileDone, leader, hyperConverged, components, evaluationError,
                notInstalled);
    }
}
