package io.kubevirt.hco.core;

import static io.kubevirt.hco.core.Stacks.NOW;
import static io.kubevirt.hco.core.Stacks.V1;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** One test per reason, and one per failure mode of the gate's contract (docs/architecture.md). */
class GateEvaluatorTest {

    private static Assessment assess(GateInput input) {
        return GateEvaluator.assess(input);
    }

    @Test
    void aConvergedStackIsUpgradeable() {
        Assessment a = assess(Stacks.converged());
        assertThat(a.reason()).isEqualTo(GateReason.AsExpected);
        assertThat(a.open()).isTrue();
        assertThat(a.componentsConverged()).isTrue();
        assertThat(a.blockers()).isEmpty();
    }

    @Test
    void nothingInstalledIsUpgradeableWithItsOwnReason() {
        var components = Stacks.converged().components().stream()
                .map(c -> new GateInput.Component(c.expectation(), ComponentObservation.absent())).toList();
        var input = new GateInput(NOW, V1, true, true, HyperConvergedObservation.absent(), components, null);
        assertThat(assess(input).reason()).isEqualTo(GateReason.NoStackInstalled);
        assertThat(assess(input).open()).isTrue();
    }

    @Test
    void componentsWithoutHyperConvergedCloseTheGate() {
        var input = Stacks.converged().withHyperConverged(HyperConvergedObservation.absent());
        Assessment a = assess(input);
        assertThat(a.reason()).isEqualTo(GateReason.HyperConvergedMissing);
        assertThat(a.message()).contains("KubeVirt", "CDI");
    }

    @Test
    void aHyperConvergedBeingDeletedClosesTheGate() {
        var input = Stacks.converged().withHyperConverged(new HyperConvergedObservation(true, true, 2, 2L, V1));
        assertThat(assess(input).reason()).isEqualTo(GateReason.HyperConvergedMissing);
    }

    @Test
    void anUnappliedHyperConvergedGenerationClosesTheGate() {
        var input = Stacks.converged().withHyperConverged(new HyperConvergedObservation(true, false, 3, 2L, V1));
        assertThat(assess(input).reason()).isEqualTo(GateReason.HyperConvergedNotObserved);
    }

    @Test
    void failureMode1_silentComponentIsNotReporting() {
        var silent = Stacks.withConditions(Stacks.healthy(3), List.of());
        Assessment a = assess(Stacks.withComponent(Stacks.converged(), 0, silent));
        assertThat(a.reason()).isEqualTo(GateReason.ComponentNotReporting);
        assertThat(a.message()).isEqualTo("KubeVirt: has no conditions yet");
        assertThat(a.open()).isFalse();
    }

    @Test
    void aMissingConditionTypeIsNotReporting() {
        var partial = Stacks.withConditions(Stacks.healthy(3), Stacks.healthyConditions(NOW, null).subList(0, 2));
        Assessment a = assess(Stacks.withComponent(Stacks.converged(), 0, partial));
        assertThat(a.reason()).isEqualTo(GateReason.ComponentNotReporting);
        assertThat(a.message()).contains("Degraded");
    }

    @Test
    void aMissingCrIsNotReporting() {
        Assessment a = assess(Stacks.withComponent(Stacks.converged(), 1, ComponentObservation.absent()));
        assertThat(a.reason()).isEqualTo(GateReason.ComponentNotReporting);
        assertThat(a.message()).startsWith("CDI:");
    }

    @Test
    void unreadableStatusIsNotReporting() {
        var garbage = new ComponentObservation(true, "5", 1L, null, null, null, List.of(), null, Stacks.SYNCED,
                "status.conditions is not a list");
        Assessment a = assess(Stacks.withComponent(Stacks.converged(), 1, garbage));
        assertThat(a.reason()).isEqualTo(GateReason.ComponentNotReporting);
        assertThat(a.message()).contains("status.conditions is not a list");
    }

    @Test
    void failureMode2_startOfUpgradeWindowIsInitializing() {
        var c = Stacks.converged();
        var starting = new GateInput(NOW, V1, false, true, c.hyperConverged(), c.components(), null);
        assertThat(assess(starting).reason()).isEqualTo(GateReason.Initializing);
        var standby = new GateInput(NOW, V1, true, false, c.hyperConverged(), c.components(), null);
        assertThat(assess(standby).reason()).isEqualTo(GateReason.Initializing);
    }

    @Test
    void anUnrecordedVersionIsAnUpgradeInProgressEvenWhenEverythingLooksFine() {
        var input = Stacks.converged().withHyperConverged(Stacks.hco("0.9.0"));
        Assessment a = assess(input);
        assertThat(a.reason()).isEqualTo(GateReason.UpgradeInProgress);
        assertThat(a.message()).contains("0.9.0", V1);
        assertThat(a.componentsConverged()).isTrue();
        assertThat(a.upgrade().phase()).isEqualTo(UpgradeState.Phase.UPGRADING);
    }

    @Test
    void anUpgradeNamesTheComponentItWaitsFor() {
        var old = new ComponentObservation(true, "100", 3L, 3L, "0.9.0", V1, Stacks.healthyConditions(NOW, null),
                false, Stacks.SYNCED, null);
        var input = Stacks.withComponent(Stacks.converged().withHyperConverged(Stacks.hco("0.9.0")), 3, old);
        Assessment a = assess(input);
        assertThat(a.reason()).isEqualTo(GateReason.UpgradeInProgress);
        assertThat(a.message()).contains("SSP", "ComponentVersionMismatch");
        assertThat(a.componentsConverged()).isFalse();
    }

    @Test
    void aFreshInstallThatConvergedStillWaitsForItsRecord() {
        Assessment a = assess(Stacks.converged().withHyperConverged(Stacks.hco(null)));
        assertThat(a.reason()).isEqualTo(GateReason.UpgradeInProgress);
        assertThat(a.componentsConverged()).isTrue();
        assertThat(a.upgrade().phase()).isEqualTo(UpgradeState.Phase.INSTALLING);
    }

    @Test
    void eachBadConditionHasItsReason() {
        var base = Stacks.healthy(3);
        assertThat(reasonWith(base, "Available", "False")).isEqualTo(GateReason.ComponentUnavailable);
        assertThat(reasonWith(base, "Available", "Unknown")).isEqualTo(GateReason.ComponentUnavailable);
        assertThat(reasonWith(base, "Degraded", "True")).isEqualTo(GateReason.ComponentDegraded);
        assertThat(reasonWith(base, "Degraded", "yes")).isEqualTo(GateReason.ComponentDegraded);
        assertThat(reasonWith(base, "Progressing", "True")).isEqualTo(GateReason.ComponentProgressing);
    }

    @Test
    void aPausedComponentIsProgressing() {
        var o = Stacks.healthy(3);
        var paused = new ComponentObservation(true, "100", 3L, 3L, V1, V1, o.conditions(), true, Stacks.SYNCED, null);
        assertThat(assess(Stacks.withComponent(Stacks.converged(), 0, paused)).reason())
                .isEqualTo(GateReason.ComponentProgressing);
    }

    @Test
    void wrongObservedOrTargetVersionIsAMismatch() {
        var o = Stacks.healthy(3);
        var oldObserved = new ComponentObservation(true, "100", 3L, 3L, "0.9.0", V1, o.conditions(), false, Stacks.SYNCED, null);
        var oldTarget = new ComponentObservation(true, "100", 3L, 3L, V1, "0.9.0", o.conditions(), false, Stacks.SYNCED, null);
        var none = new ComponentObservation(true, "100", 3L, 3L, null, null, o.conditions(), false, Stacks.SYNCED, null);
        for (var bad : List.of(oldObserved, oldTarget, none)) {
            assertThat(assess(Stacks.withComponent(Stacks.converged(), 0, bad)).reason())
                    .isEqualTo(GateReason.ComponentVersionMismatch);
        }
    }

    @Test
    void anUnconfiguredExpectedVersionNeverMatches() {
        var unconfigured = new ComponentExpectation("KubeVirt", null, ObservationEvidence.OBSERVED_GENERATION, true, null);
        Assessment a = assess(Stacks.withExpectation(Stacks.converged(), 0, unconfigured));
        assertThat(a.reason()).isEqualTo(GateReason.ComponentVersionMismatch);
        assertThat(a.message()).contains("no expected version");
    }

    @Test
    void failureMode4_aSnapshotOlderThanOurWriteIsStale() {
        var wrote = new ComponentExpectation("KubeVirt", V1, ObservationEvidence.OBSERVED_GENERATION, true,
                new WriteRecord("101", 4));
        Assessment a = assess(Stacks.withExpectation(Stacks.converged(), 0, wrote));
        assertThat(a.reason()).isEqualTo(GateReason.ComponentStale);
        assertThat(a.message()).contains("101");
    }

    @Test
    void anUnparsableResourceVersionIsStale() {
        var wrote = new ComponentExpectation("KubeVirt", V1, ObservationEvidence.OBSERVED_GENERATION, true,
                new WriteRecord("abc", 3));
        assertThat(assess(Stacks.withExpectation(Stacks.converged(), 0, wrote)).reason())
                .isEqualTo(GateReason.ComponentStale);
    }

    @Test
    void oldStatusOfANewGenerationIsStale() {
        var o = Stacks.healthy(3);
        var lagging = new ComponentObservation(true, "100", 4L, 3L, V1, V1, o.conditions(), false, Stacks.SYNCED, null);
        assertThat(assess(Stacks.withComponent(Stacks.converged(), 0, lagging)).reason())
                .isEqualTo(GateReason.ComponentStale);
        var noObserved = new ComponentObservation(true, "100", 4L, null, V1, V1, o.conditions(), false, Stacks.SYNCED, null);
        assertThat(assess(Stacks.withComponent(Stacks.converged(), 0, noObserved)).reason())
                .isEqualTo(GateReason.ComponentStale);
        var staleCondition = new ComponentObservation(true, "100", 4L, 4L, V1, V1,
                Stacks.healthyConditions(NOW, 3L), false, Stacks.SYNCED, null);
        assertThat(assess(Stacks.withComponent(Stacks.converged(), 0, staleCondition)).reason())
                .isEqualTo(GateReason.ComponentStale);
    }

    @Test
    void aWrittenGenerationNewerThanTheSnapshotIsStale() {
        var wrote = new ComponentExpectation("KubeVirt", V1, ObservationEvidence.OBSERVED_GENERATION, true,
                new WriteRecord("100", 4));
        assertThat(assess(Stacks.withExpectation(Stacks.converged(), 0, wrote)).reason())
                .isEqualTo(GateReason.ComponentStale);
    }

    @Test
    void componentsWithoutObservedGenerationNeedAStatusWrittenAfterTheSpecWrite() {
        var conditions = Stacks.healthyConditions(NOW.minusSeconds(20), null);
        var unchanged = new ComponentObservation(true, "100", 1L, null, V1, V1, conditions, null,
                new SpecState(true, "abc", "abc"), null);
        Assessment a = assess(Stacks.withComponent(Stacks.converged(), 1, unchanged));
        assertThat(a.reason()).isEqualTo(GateReason.ComponentStale);
        assertThat(a.message()).isEqualTo("CDI: has not written its status since the spec was last written (status abc unchanged)");
        var noRecord = new ComponentObservation(true, "100", 1L, null, V1, V1, conditions, null,
                new SpecState(true, null, "abc"), null);
        assertThat(assess(Stacks.withComponent(Stacks.converged(), 1, noRecord)).message())
                .isEqualTo("CDI: carries no record of its status at this operator's last spec write");
        var written = new ComponentObservation(true, "100", 1L, null, V1, V1, conditions, null,
                new SpecState(true, "abc", "def"), null);
        assertThat(assess(Stacks.withComponent(Stacks.converged(), 1, written)).open()).isTrue();
    }

    @Test
    void aSpecNotInSyncOrNotComparedIsStaleWhateverTheComponentReports() {
        var o = Stacks.healthy(3);
        var edited = new ComponentObservation(true, "100", 3L, 3L, V1, V1, o.conditions(), false,
                new SpecState(false, "abc", "def"), null);
        Assessment a = assess(Stacks.withComponent(Stacks.converged(), 0, edited));
        assertThat(a.reason()).isEqualTo(GateReason.ComponentStale);
        assertThat(a.message()).startsWith("KubeVirt: its spec does not hold what the HyperConverged implies yet");
        var unknown = new ComponentObservation(true, "100", 3L, 3L, V1, V1, o.conditions(), false, null, null);
        assertThat(assess(Stacks.withComponent(Stacks.converged(), 0, unknown)).message())
                .isEqualTo("KubeVirt: its spec has not been compared with the desired one yet");
    }

    @Test
    void anEvaluationErrorClosesTheGate() {
        var c = Stacks.converged();
        var failed = new GateInput(NOW, V1, true, true, c.hyperConverged(), c.components(), "list failed: 500");
        assertThat(assess(failed).reason()).isEqualTo(GateReason.EvaluationError);
        var noVersion = new GateInput(NOW, null, true, true, c.hyperConverged(), c.components(), null);
        assertThat(assess(noVersion).reason()).isEqualTo(GateReason.EvaluationError);
        var noComponents = new GateInput(NOW, V1, true, true, c.hyperConverged(), List.of(), null);
        assertThat(assess(noComponents).reason()).isEqualTo(GateReason.EvaluationError);
    }

    @Test
    void anExceptionInsideTheEvaluationClosesTheGate() {
        var broken = new GateInput(NOW, V1, true, true, null, Stacks.converged().components(), null);
        Assessment a = assess(broken);
        assertThat(a.reason()).isEqualTo(GateReason.EvaluationError);
        assertThat(a.open()).isFalse();
    }

    @Test
    void everyBlockingComponentIsListedInDescriptorOrder() {
        var input = Stacks.withComponent(Stacks.withComponent(Stacks.converged(), 0, ComponentObservation.absent()), 3,
                ComponentObservation.absent());
        assertThat(assess(input).blockers()).extracting(Blocker::subject).containsExactly("KubeVirt", "SSP");
    }

    private static GateReason reasonWith(ComponentObservation base, String type, String status) {
        var conditions = base.conditions().stream()
                .map(c -> c.type().equals(type) ? Condition.of(type, status) : c).toList();
        return assess(Stacks.withComponent(Stacks.converged(), 0, Stacks.withConditions(base, conditions))).reason();
    }
}
