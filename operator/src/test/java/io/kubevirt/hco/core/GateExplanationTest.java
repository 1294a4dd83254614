package io.kubevirt.hco.core;

import static io.kubevirt.hco.core.Stacks.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class GateExplanationTest {

    @Test
    void namesTheBlockingComponentWithItsEvidence() {
        GateInput input = Stacks.withComponent(Stacks.converged().withHyperConverged(Stacks.hco("0.9.0")), 0,
                Stacks.withConditions(Stacks.healthy(3), java.util.List.of()));
        GateDecision decision = Stabilizer.decide(GateEvaluator.assess(input), null, Duration.ofSeconds(5), NOW);
        GateExplanation e = GateExplanation.of(input, decision, NOW, Duration.ofSeconds(5), NOW.minusSeconds(60));

        assertThat(e.upgradeable()).isFalse();
        assertThat(e.reason()).isEqualTo("UpgradeInProgress");
        assertThat(e.upgrade().phase()).isEqualTo("UPGRADING");
        assertThat(e.upgrade().observedSince()).isEqualTo(NOW.minusSeconds(60));
        assertThat(e.upgrade().pending()).containsExactly("KubeVirt");
        assertThat(e.upgrade().done()).containsExactly("CDI", "NetworkAddonsConfig", "SSP");
        var kubevirt = e.components().get(0);
        assertThat(kubevirt.converged()).isFalse();
        assertThat(kubevirt.blockedBy()).isEqualTo("ComponentNotReporting");
        assertThat(kubevirt.detail()).isEqualTo("has no conditions yet");
        assertThat(kubevirt.generation()).isEqualTo(3L);

        String text = e.toText();
        assertThat(text).startsWith("Upgradeable=False (UpgradeInProgress)")
                .contains("upgrade: UPGRADING 0.9.0 -> 1.0.0")
                .contains("pending [KubeVirt]")
                .contains("has no conditions yet");
    }

    @Test
    void showsTheStabilizationWindowWhileItRuns() {
        GateInput input = Stacks.converged();
        GateDecision first = Stabilizer.decide(GateEvaluator.assess(input), null, Duration.ofSeconds(5), NOW);
        GateDecision later = Stabilizer.decide(GateEvaluator.assess(input), first.openSince(), Duration.ofSeconds(5),
                NOW.plusSeconds(2));
        GateExplanation e = GateExplanation.of(input.at(NOW.plusSeconds(2)), later, NOW, Duration.ofSeconds(5), null);
        assertThat(e.stabilization().convergedSince()).isEqualTo(NOW);
        assertThat(e.stabilization().remaining()).isEqualTo(Duration.ofSeconds(3));
        assertThat(e.toText()).contains("remaining 3000 ms");
    }
}
