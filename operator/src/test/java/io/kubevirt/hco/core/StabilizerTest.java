package io.kubevirt.hco.core;

import static io.kubevirt.hco.core.Stacks.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class StabilizerTest {

    private static final Duration WINDOW = Duration.ofSeconds(5);

    @Test
    void anOpenAssessmentWaitsForTheWindow() {
        Assessment open = GateEvaluator.assess(Stacks.converged());
        GateDecision first = Stabilizer.decide(open, null, WINDOW, NOW);
        assertThat(first.upgradeable()).isFalse();
        assertThat(first.reason()).isEqualTo(GateReason.Stabilizing);
        assertThat(first.recheckAfter()).isEqualTo(WINDOW);

        GateDecision midway = Stabilizer.decide(open, first.openSince(), WINDOW, NOW.plusSeconds(3));
        assertThat(midway.upgradeable()).isFalse();
        assertThat(midway.recheckAfter()).isEqualTo(Duration.ofSeconds(2));
        assertThat(midway.message()).as("no write while waiting out the window").isEqualTo(first.message());

        GateDecision done = Stabilizer.decide(open, midway.openSince(), WINDOW, NOW.plusSeconds(5));
        assertThat(done.upgradeable()).isTrue();
        assertThat(done.reason()).isEqualTo(GateReason.AsExpected);
        assertThat(done.recheckAfter()).isNull();
    }

    @Test
    void aClosedAssessmentResetsTheWindow() {
        Assessment open = GateEvaluator.assess(Stacks.converged());
        Assessment closed = GateEvaluator.assess(Stacks.withComponent(Stacks.converged(), 0, ComponentObservation.absent()));
        GateDecision first = Stabilizer.decide(open, null, WINDOW, NOW);
        GateDecision blip = Stabilizer.decide(closed, first.openSince(), WINDOW, NOW.plusSeconds(4));
        assertThat(blip.openSince()).isNull();
        GateDecision again = Stabilizer.decide(open, blip.openSince(), WINDOW, NOW.plusSeconds(6));
        assertThat(again.upgradeable()).isFalse();
        assertThat(again.openSince()).isEqualTo(NOW.plusSeconds(6));
    }

    @Test
    void aZeroWindowOpensAtOnce() {
        GateDecision d = Stabilizer.decide(GateEvaluator.assess(Stacks.converged()), null, Duration.ZERO, NOW);
        assertThat(d.upgradeable()).isTrue();
    }

    @Test
    void aClockGoingBackwardsRestartsTheWindowInsteadOfOpening() {
        Assessment open = GateEvaluator.assess(Stacks.converged());
        GateDecision d = Stabilizer.decide(open, NOW.plusSeconds(60), WINDOW, NOW);
        assertThat(d.upgradeable()).isFalse();
        assertThat(d.openSince()).isEqualTo(NOW);
    }
}
