package io.kubevirt.hco.core;

import static io.kubevirt.hco.core.Stacks.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The small value types the decision is built from: ordering, phases, defaults, messages. */
class CoreValuesTest {

    @Test
    void resourceVersionsCompareAsNumbersAndAnythingElseIsNotProvablyNewer() {
        assertThat(ResourceVersions.atOrAfter("12", "12")).isTrue();
        assertThat(ResourceVersions.atOrAfter("13", "12")).isTrue();
        assertThat(ResourceVersions.atOrAfter("100", "99")).as("numeric, not lexical").isTrue();
        assertThat(ResourceVersions.atOrAfter("11", "12")).isFalse();
        assertThat(ResourceVersions.atOrAfter(" 12 ", "12")).isTrue();
        assertThat(ResourceVersions.atOrAfter(null, "1")).isFalse();
        assertThat(ResourceVersions.atOrAfter("1", null)).isFalse();
        assertThat(ResourceVersions.atOrAfter("  ", "1")).isFalse();
        assertThat(ResourceVersions.atOrAfter("abc", "1")).isFalse();
        assertThat(ResourceVersions.parse("0")).isZero();
        assertThat(ResourceVersions.parse("")).isNull();
    }

    @Test
    void upgradeStateFollowsTheRecordedVersion() {
        assertThat(UpgradeState.of(null, "2")).isEqualTo(new UpgradeState(UpgradeState.Phase.INSTALLING, null, "2"));
        assertThat(UpgradeState.of(" ", "2").phase()).isEqualTo(UpgradeState.Phase.INSTALLING);
        assertThat(UpgradeState.of("2", "2")).isEqualTo(new UpgradeState(UpgradeState.Phase.COMPLETE, "2", "2"));
        assertThat(UpgradeState.of("1", "2")).isEqualTo(new UpgradeState(UpgradeState.Phase.UPGRADING, "1", "2"));
        assertThat(UpgradeState.of(null, "2").inProgress()).isTrue();
        assertThat(UpgradeState.of("1", "2").inProgress()).isTrue();
        assertThat(UpgradeState.of("2", "2").inProgress()).isFalse();
    }

    @Test
    void missingListsAndStatusesHaveSafeDefaults() {
        assertThat(new ComponentObservation(true, "1", 1L, 1L, "v", "v", null, null, Stacks.SYNCED, null).conditions()).isEmpty();
        assertThat(new GateInput(NOW, "1", true, true, HyperConvergedObservation.absent(), null, null).components())
                .isEmpty();
        assertThat(new Condition("Available", null, null, null, null, null).status()).isEqualTo(Condition.UNKNOWN);
        assertThat(Stacks.hco("1").withRecordedOperatorVersion("2").recordedOperatorVersion()).isEqualTo("2");
    }

    @Test
    void blockerMessagesCarryTheComponentsOwnReasonAndMessage() {
        var degraded = List.of(new Condition("Available", "True", null, null, null, NOW),
                new Condition("Progressing", "False", null, null, null, NOW),
                new Condition("Degraded", "True", "CrashLoop", "virt-handler restarts", null, NOW));
        Blocker b = ComponentHealth.evaluate(Stacks.byGeneration("KubeVirt"),
                Stacks.withConditions(Stacks.healthy(3), degraded)).orElseThrow();
        assertThat(b.message()).isEqualTo("Degraded=True (CrashLoop: virt-handler restarts)");
        var reasonOnly = List.of(new Condition("Available", "False", "NoPods", null, null, NOW),
                degraded.get(1), degraded.get(2));
        assertThat(ComponentHealth.evaluate(Stacks.byGeneration("KubeVirt"),
                Stacks.withConditions(Stacks.healthy(3), reasonOnly)).orElseThrow().message())
                .isEqualTo("Available=False (NoPods)");
        var messageOnly = List.of(new Condition("Available", "False", null, "no pods", null, NOW),
                degraded.get(1), degraded.get(2));
        assertThat(ComponentHealth.evaluate(Stacks.byGeneration("KubeVirt"),
                Stacks.withConditions(Stacks.healthy(3), messageOnly)).orElseThrow().message())
                .isEqualTo("Available=False (no pods)");
        var bare = List.of(new Condition("Available", "False", "", "", null, NOW), degraded.get(1), degraded.get(2));
        assertThat(ComponentHealth.evaluate(Stacks.byGeneration("KubeVirt"),
                Stacks.withConditions(Stacks.healthy(3), bare)).orElseThrow().message()).isEqualTo("Available=False");
    }

    @Test
    void versionMessagesQuoteWhatWasSeenAndSayWhenNothingWas() {
        ComponentObservation old = new ComponentObservation(true, "100", 3L, 3L, "0.9.0", "1.0.0",
                Stacks.healthyConditions(NOW, null), false, Stacks.SYNCED, null);
        assertThat(ComponentHealth.evaluate(Stacks.byGeneration("SSP"), old).orElseThrow().message())
                .isEqualTo("observed version \"0.9.0\", expected \"1.0.0\"");
        ComponentObservation none = new ComponentObservation(true, "100", 3L, 3L, null, "1.0.0",
                Stacks.healthyConditions(NOW, null), false, Stacks.SYNCED, null);
        assertThat(ComponentHealth.evaluate(Stacks.byGeneration("SSP"), none).orElseThrow().message())
                .isEqualTo("observed version none, expected \"1.0.0\"");
        ComponentObservation target = new ComponentObservation(true, "100", 3L, 3L, "1.0.0", "0.9.0",
                Stacks.healthyConditions(NOW, null), false, Stacks.SYNCED, null);
        assertThat(ComponentHealth.evaluate(Stacks.byGeneration("SSP"), target).orElseThrow().message())
                .isEqualTo("target version \"0.9.0\", expected \"1.0.0\"");
        ComponentExpectation noTarget = new ComponentExpectation("SSP", "1.0.0", ObservationEvidence.OBSERVED_GENERATION,
                false, null);
        assertThat(ComponentHealth.evaluate(noTarget, target)).isEmpty();
        ComponentExpectation blank = new ComponentExpectation("SSP", " ", ObservationEvidence.OBSERVED_GENERATION,
                false, null);
        assertThat(ComponentHealth.evaluate(blank, target).orElseThrow().message())
                .isEqualTo("no expected version is configured");
    }
}
