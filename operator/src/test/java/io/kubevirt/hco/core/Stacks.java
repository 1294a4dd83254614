package io.kubevirt.hco.core;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Builders of snapshots for the core's tests: a healthy converged stack, and ways to spoil it. */
final class Stacks {

    static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");
    static final String V1 = "1.0.0";
    /** A spec in sync, and a status written since it was (different fingerprints). */
    static final SpecState SYNCED = new SpecState(true, "status-at-write", "status-now");

    private Stacks() {
    }

    static ComponentExpectation byGeneration(String name) {
        return new ComponentExpectation(name, V1, ObservationEvidence.OBSERVED_GENERATION, true, null);
    }

    static ComponentExpectation byStatusWrite(String name) {
        return new ComponentExpectation(name, V1, ObservationEvidence.STATUS_WRITTEN_AFTER_SPEC, true, null);
    }

    static List<Condition> healthyConditions(Instant heartbeat, Long generation) {
        return List.of(new Condition("Available", "True", "AsExpected", "", generation, heartbeat),
                new Condition("Progressing", "False", "AsExpected", "", generation, heartbeat),
                new Condition("Degraded", "False", "AsExpected", "", generation, heartbeat));
    }

    static ComponentObservation healthy(long generation) {
        return new ComponentObservation(true, "100", generation, generation, V1, V1,
                healthyConditions(NOW.minusSeconds(1), null), false, SYNCED, null);
    }

    static GateInput.Component generationComponent(String name) {
        return new GateInput.Component(byGeneration(name), healthy(3));
    }

    static GateInput.Component statusWriteComponent(String name) {
        return new GateInput.Component(byStatusWrite(name), new ComponentObservation(true, "100", 1L, null, V1, V1,
                healthyConditions(NOW.minusSeconds(1), null), null, SYNCED, null));
    }

    static HyperConvergedObservation hco(String recorded) {
        return new HyperConvergedObservation(true, false, 2, 2L, recorded);
    }

    /** A stack where every rule holds. */
    static GateInput converged() {
        return new GateInput(NOW, V1, true, true, hco(V1), List.of(generationComponent("KubeVirt"),
                statusWriteComponent("CDI"), statusWriteComponent("NetworkAddonsConfig"), generationComponent("SSP")),
                null);
    }

    static GateInput withComponent(GateInput input, int index, ComponentObservation observation) {
        List<GateInput.Component> components = new ArrayList<>(input.components());
        components.set(index, new GateInput.Component(components.get(index).expectation(), observation));
        return new GateInput(input.now(), input.operatorVersion(), input.fullReconcileDone(), input.leader(),
                input.hyperConverged(), components, input.evaluationError());
    }

    static GateInput withExpectation(GateInput input, int index, ComponentExpectation expectation) {
        List<GateInput.Component> components = new ArrayList<>(input.components());
        components.set(index, new GateInput.Component(expectation, components.get(index).observation()));
        return new GateInput(input.now(), input.operatorVersion(), input.fullReconcileDone(), input.leader(),
                input.hyperConverged(), components, input.evaluationError());
    }

    static ComponentObservation withConditions(ComponentObservation o, List<Condition> conditions) {
        return new ComponentObservation(o.present(), o.resourceVersion(), o.generation(), o.observedGeneration(),
                o.observedVersion(), o.targetVersion(), conditions, o.paused(), o.spec(), o.problem());
    }
}
