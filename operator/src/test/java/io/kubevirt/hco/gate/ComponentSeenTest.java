package io.kubevirt.hco.gate;

import static io.kubevirt.hco.gate.GateServiceOpeningTest.NOW;
import static io.kubevirt.hco.gate.GateServiceOpeningTest.V;
import static io.kubevirt.hco.gate.GateServiceOpeningTest.converged;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.kubevirt.hco.core.ComponentObservation;
import io.kubevirt.hco.core.Condition;
import io.kubevirt.hco.core.GateReason;
import io.kubevirt.hco.core.SpecState;
import io.kubevirt.hco.lifecycle.ProcessLifecycle;

/**
 * A component's watch event closes an open gate at once when the CR as now seen closes it, ahead
 * of the pass the event wakes; it never opens, and it leaves a closed gate to the passes.
 */
class ComponentSeenTest {

    final List<String> written = new ArrayList<>();
    final GateServiceOpeningTest.QuietMetrics metrics = new GateServiceOpeningTest.QuietMetrics();
    GateService gate;

    @BeforeEach
    void openGate() {
        var settings = GateServiceOpeningTest.settings(Duration.ZERO);
        var lifecycle = new ProcessLifecycle(settings, java.time.Clock.fixed(NOW, java.time.ZoneOffset.UTC));
        gate = GateServiceOpeningTest.gateService(settings, lifecycle, metrics, written::add);
        assertThat(gate.evaluate(converged(3), null, () -> converged(3)).upgradeable()).isTrue();
        written.clear();
    }

    @Test
    void aDegradationSeenInTheEventClosesAtOnce() {
        gate.componentSeen("KubeVirt", kubevirt("11", "Degraded", "True"));

        assertThat(written).containsExactly("False/ComponentDegraded");
        assertThat(gate.current().upgradeable()).isFalse();
        assertThat(gate.current().message()).contains("KubeVirt");
        assertThat(metrics.closedFromEvent).isOne();
        // the snapshot it decided on keeps the other component and the spec state as last judged
        var seen = gate.currentInput().components();
        assertThat(seen.get(0).observation().resourceVersion()).isEqualTo("11");
        assertThat(seen.get(0).observation().spec()).isEqualTo(new SpecState(true, "a", "b"));
        assertThat(seen.get(1).observation().resourceVersion()).isEqualTo("10");
    }

    @Test
    void aDeletedComponentClosesAtOnce() {
        gate.componentSeen("SSP", ComponentObservation.absent());

        assertThat(written).hasSize(1);
        assertThat(written.get(0)).startsWith("False/");
        assertThat(metrics.closedFromEvent).isOne();
    }

    @Test
    void aChangeThatKeepsTheStackConvergedPublishesNothing() {
        gate.componentSeen("KubeVirt", kubevirt("11", "Degraded", "False"));

        assertThat(written).isEmpty();
        assertThat(gate.current().upgradeable()).isTrue();
        assertThat(gate.currentInput().components().get(0).observation().resourceVersion())
                .as("the published decision's input is untouched").isEqualTo("10");
        assertThat(metrics.closedFromEvent).isZero();
    }

    @Test
    void aClosedGateIsLeftToThePasses() {
        gate.componentSeen("KubeVirt", kubevirt("11", "Degraded", "True"));
        written.clear();

        gate.componentSeen("KubeVirt", kubevirt("12", "Available", "False"));

        assertThat(written).isEmpty();
        assertThat(gate.current().reason()).isEqualTo(GateReason.ComponentDegraded);
        assertThat(metrics.closedFromEvent).isOne();
    }

    /** KubeVirt's CR at resourceVersion {@code rv}, converged but for one condition. */
    private static ComponentObservation kubevirt(String rv, String type, String status) {
        List<Condition> conditions = new ArrayList<>(List.of(Condition.of("Available", "True"),
                Condition.of("Progressing", "False"), Condition.of("Degraded", "False")));
        conditions.replaceAll(c -> c.type().equals(type) ? Condition.of(type, status) : c);
        return new ComponentObservation(true, rv, 2L, 2L, V, V, conditions, false, null, null);
    }
}
