package io.kubevirt.hco.core;

import static io.kubevirt.hco.core.Stacks.NOW;
import static io.kubevirt.hco.core.Stacks.V1;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The edges of the decision that the per-reason tests do not pin: when "every component converged"
 * (which records the version) holds, how blockers are listed, and the exact texts people read.
 */
class GateEvaluatorEdgesTest {

    @Test
    void noSnapshotAtAllIsAnEvaluationErrorNotAnException() {
        Assessment a = GateEvaluator.assess(null);
        assertThat(a.reason()).isEqualTo(GateReason.EvaluationError);
        assertThat(a.open()).isFalse();
        assertThat(a.blockers()).extracting(Blocker::subject).containsExactly(GateEvaluator.OPERATOR);
        assertThat(a.upgrade().toVersion()).isNull();
    }

    @Test
    void componentsConvergedDuringAnUpgradeIsWhatRecordsTheVersion() {
        Assessment a = GateEvaluator.assess(Stacks.converged().withHyperConverged(Stacks.hco("0.9.0")));
        assertThat(a.reason()).isEqualTo(GateReason.UpgradeInProgress);
        assertThat(a.open()).isFalse();
        assertThat(a.componentsConverged()).isTrue();
        assertThat(a.message()).isEqualTo("operator: upgrade from 0.9.0 to 1.0.0 in progress; recording the new version");
    }

    @Test
    void anUpgradeNamesTheComponentItWaitsFor() {
        GateInput input = Stacks.withComponent(Stacks.converged().withHyperConverged(Stacks.hco("0.9.0")), 1,
                ComponentObservation.absent());
        Assessment a = GateEvaluator.assess(input);
        assertThat(a.message()).isEqualTo(
                "operator: upgrade from 0.9.0 to 1.0.0 in progress; waiting for CDI (ComponentNotReporting: its CR does not exist)");
        assertThat(a.componentsConverged()).isFalse();
        assertThat(a.blockers()).extracting(Blocker::subject).containsExactly(GateEvaluator.OPERATOR, "CDI");
    }

    @Test
    void aComponentHeadlineIsListedOnce() {
        Assessment a = GateEvaluator.assess(Stacks.withComponent(Stacks.converged(), 3, ComponentObservation.absent()));
        assertThat(a.reason()).isEqualTo(GateReason.ComponentNotReporting);
        assertThat(a.blockers()).extracting(Blocker::subject).containsExactly("SSP");
    }

    @Test
    void nothingElseCountsAsConverged() {
        GateInput converged = Stacks.converged();
        assertThat(GateEvaluator.assess(converged.withHyperConverged(new HyperConvergedObservation(true, true, 2, 2L,
                V1))).componentsConverged()).as("HyperConverged being deleted").isFalse();
        assertThat(GateEvaluator.assess(new GateInput(NOW, V1, true, true, Stacks.hco(V1), converged.components(),
                "boom")).componentsConverged()).as("evaluation error").isFalse();
        assertThat(GateEvaluator.assess(new GateInput(NOW, V1, true, true, Stacks.hco(V1), List.of(), null))
                .componentsConverged()).as("no components").isFalse();
        assertThat(GateEvaluator.assess(converged.withHyperConverged(HyperConvergedObservation.absent()))
                .componentsConverged()).as("no HyperConverged").isFalse();
    }

    @Test
    void aMissingHyperConvergedListsOnlyTheComponentCrsThatExist() {
        GateInput input = Stacks.withComponent(Stacks.converged().withHyperConverged(HyperConvergedObservation.absent()),
                1, ComponentObservation.absent());
        assertThat(GateEvaluator.assess(input).message()).isEqualTo(
                "HyperConverged: the HyperConverged CR is missing while component CRs still exist: KubeVirt, NetworkAddonsConfig, SSP");
    }

    @Test
    void theExplanationOfAConvergedStackShowsOurWritesAndNoBlockers() {
        GateInput input = Stacks.withExpectation(Stacks.converged(), 0, new ComponentExpectation("KubeVirt", V1,
                ObservationEvidence.OBSERVED_GENERATION, true, new WriteRecord("90", 3)));
        GateDecision open = Stabilizer.decide(GateEvaluator.assess(input), NOW.minusSeconds(10), Duration.ofSeconds(5),
                NOW);
        GateExplanation e = GateExplanation.of(input, open, null, Duration.ofSeconds(5), NOW.minusSeconds(30));
        assertThat(e.upgradeable()).isTrue();
        assertThat(e.stabilization().remaining()).isEqualTo(Duration.ZERO);
        assertThat(e.upgrade().observedSince()).as("no upgrade in progress").isNull();
        var kubevirt = e.components().get(0);
        assertThat(kubevirt.converged()).isTrue();
        assertThat(kubevirt.blockedBy()).isNull();
        assertThat(kubevirt.detail()).isNull();
        assertThat(kubevirt.lastWriteResourceVersion()).isEqualTo("90");
        assertThat(kubevirt.lastWriteGeneration()).isEqualTo(3L);
        assertThat(e.components().get(1).lastWriteResourceVersion()).isNull();
        assertThat(e.components().get(1).lastWriteGeneration()).isNull();
        String text = e.toText();
        assertThat(text.lines().findFirst()).as("no 'since' without a time").contains("Upgradeable=True (AsExpected)");
        assertThat(text)
                .contains("upgrade: COMPLETE 1.0.0 -> 1.0.0; done [KubeVirt, CDI, NetworkAddonsConfig, SSP], pending []")
                .contains("stabilization: converged since " + NOW.minusSeconds(10) + ", window 5000 ms, remaining 0 ms")
                .contains(String.format("%-20s %-26s observed=1.0.0", "KubeVirt", "converged"))
                .contains("rv=100 (our write 90)");
        assertThat(text.lines().count()).as("no detail lines for converged components").isEqualTo(8);
    }

    @Test
    void theExplanationOfAnInstallSaysThereIsNoPreviousVersion() {
        GateInput input = Stacks.converged().withHyperConverged(Stacks.hco(null));
        GateDecision d = Stabilizer.decide(GateEvaluator.assess(input), null, Duration.ofSeconds(5), NOW);
        String text = GateExplanation.of(input, d, NOW, Duration.ofSeconds(5), NOW).toText();
        assertThat(text).contains("upgrade: INSTALLING (none) -> 1.0.0").contains(" since " + NOW)
                .doesNotContain("stabilization:");
    }

    @Test
    void anUnknownOwnVersionIsAnEvaluationError() {
        for (String version : new String[] { null, " " }) {
            GateInput input = new GateInput(NOW, version, true, true, Stacks.hco(V1), Stacks.converged().components(),
                    null);
            Assessment a = GateEvaluator.assess(input);
            assertThat(a.reason()).isEqualTo(GateReason.EvaluationError);
            assertThat(a.message()).endsWith("the operator's own version is unknown: set OPERATOR_VERSION");
        }
    }

    @Test
    void aFailureInsideTheDecisionKeepsTheVersionItWasFor() {
        GateInput broken = new GateInput(NOW, V1, true, true, Stacks.hco(V1),
                List.of(new GateInput.Component(null, ComponentObservation.absent())), null);
        Assessment a = GateEvaluator.assess(broken);
        assertThat(a.reason()).isEqualTo(GateReason.EvaluationError);
        assertThat(a.message()).startsWith("evaluation failed: java.lang.NullPointerException");
        assertThat(a.upgrade().toVersion()).isEqualTo(V1);
    }

    @Test
    void aVersionRecordedOnAHyperConvergedThatIsGoneDoesNotCount() {
        GateInput input = Stacks.converged().withHyperConverged(new HyperConvergedObservation(false, false, 0, null, V1));
        assertThat(GateEvaluator.assess(input).upgrade().phase()).isEqualTo(UpgradeState.Phase.INSTALLING);
    }

    @Test
    void aComponentCrWithoutGenerationIsStale() {
        ComponentObservation noGeneration = new ComponentObservation(true, "100", null, 3L, V1, V1,
                Stacks.healthyConditions(NOW, null), false, Stacks.SYNCED, null);
        Blocker b = ComponentHealth.evaluate(Stacks.byGeneration("KubeVirt"), noGeneration).orElseThrow();
        assertThat(b.reason()).isEqualTo(GateReason.ComponentStale);
        assertThat(b.message()).isEqualTo("its CR has no metadata.generation");
    }

    @Test
    void noClockIsReadHeartbeatsFarInTheFutureOrPastChangeNothing() {
        for (Instant beat : new Instant[] { NOW.plus(Duration.ofDays(3)), NOW.minus(Duration.ofDays(3)), null }) {
            GateInput input = Stacks.withComponent(Stacks.converged(), 1, new ComponentObservation(true, "100", 1L,
                    null, V1, V1, Stacks.healthyConditions(beat, null), null, Stacks.SYNCED, null));
            assertThat(GateEvaluator.assess(input).open()).as("heartbeat " + beat).isTrue();
        }
    }
}
