package io.kubevirt.hco.core;

import static io.kubevirt.hco.core.Stacks.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The HyperConverged's own conditions, summarized from the same snapshot as the gate decision. */
class StackConditionsTest {

    private static List<Condition> summarize(GateInput input) {
        GateDecision decision = Stabilizer.decide(GateEvaluator.assess(input), NOW.minusSeconds(60),
                Duration.ofSeconds(5), NOW);
        return StackConditions.summarize(input, decision);
    }

    private static Condition get(List<Condition> conditions, String type) {
        return conditions.stream().filter(c -> c.type().equals(type)).findFirst().orElseThrow();
    }

    @Test
    void aConvergedStackIsCompleteAvailableQuietAndUpgradeable() {
        List<Condition> c = summarize(Stacks.converged());
        assertThat(c).extracting(Condition::type).containsExactly("ReconcileComplete", "Available", "Progressing",
                "Degraded", "Upgradeable");
        assertThat(get(c, "ReconcileComplete")).extracting(Condition::status, Condition::reason)
                .containsExactly("True", "ReconcileCompleted");
        assertThat(get(c, "Available")).extracting(Condition::status, Condition::message)
                .containsExactly("True", "every component is available");
        assertThat(get(c, "Progressing")).extracting(Condition::status, Condition::message)
                .containsExactly("False", "no component is progressing");
        assertThat(get(c, "Degraded")).extracting(Condition::status, Condition::message)
                .containsExactly("False", "no component is degraded");
        assertThat(get(c, "Upgradeable")).extracting(Condition::status, Condition::reason)
                .containsExactly("True", "AsExpected");
    }

    @Test
    void aFailedReconcileSaysWhy() {
        GateInput input = new GateInput(NOW, Stacks.V1, true, true, Stacks.hco(Stacks.V1),
                Stacks.converged().components(), "applying component specs failed: 409");
        List<Condition> c = summarize(input);
        assertThat(get(c, "ReconcileComplete")).extracting(Condition::status, Condition::reason, Condition::message)
                .containsExactly("False", "ReconcileFailed", "applying component specs failed: 409");
        assertThat(get(c, "Upgradeable")).extracting(Condition::status, Condition::reason)
                .containsExactly("False", "EvaluationError");
    }

    @Test
    void eachComponentConditionIsReportedWithItsPolarityAndMessage() {
        var bad = List.of(new Condition("Available", "False", null, "no pods", null, NOW),
                new Condition("Progressing", "True", null, null, null, NOW),
                new Condition("Degraded", "True", null, "crash loop", null, NOW));
        List<Condition> c = summarize(Stacks.withComponent(Stacks.converged(), 1,
                Stacks.withConditions(Stacks.healthy(3), bad)));
        assertThat(get(c, "Available")).extracting(Condition::status, Condition::reason, Condition::message)
                .containsExactly("False", "ComponentUnavailable", "CDI reports Available=False: no pods");
        assertThat(get(c, "Progressing")).extracting(Condition::status, Condition::reason, Condition::message)
                .containsExactly("True", "ComponentProgressing", "CDI reports Progressing=True");
        assertThat(get(c, "Degraded")).extracting(Condition::status, Condition::reason, Condition::message)
                .containsExactly("True", "ComponentDegraded", "CDI reports Degraded=True: crash loop");
    }

    @Test
    void everyOffendingComponentIsListedNotOnlyTheFirst() {
        var degraded = List.of(new Condition("Available", "True", null, null, null, NOW),
                new Condition("Progressing", "False", null, null, null, NOW),
                new Condition("Degraded", "True", null, "crash loop", null, NOW));
        GateInput twoDegraded = Stacks.withComponent(Stacks.withComponent(Stacks.converged(), 1,
                Stacks.withConditions(Stacks.healthy(3), degraded)), 2, ComponentObservation.absent());
        List<Condition> c = summarize(twoDegraded);
        assertThat(get(c, "Degraded").message())
                .isEqualTo("CDI reports Degraded=True: crash loop; NetworkAddonsConfig has not reported Degraded");
        assertThat(get(c, "Available").message()).isEqualTo("NetworkAddonsConfig has not reported Available");
    }

    @Test
    void theSpecsOwnNotesAreConditionsOnlyWhileTheyHold() {
        List<Condition> plain = summarize(Stacks.converged());
        assertThat(StackConditions.withSpecNotes(plain, StackConditions.SpecNotes.NONE)).isEqualTo(plain);
        List<Condition> noted = StackConditions.withSpecNotes(plain, new StackConditions.SpecNotes(
                List.of("kubevirt.kubevirt.io/jsonpatch"), java.util.Map.of("vddkInitImage", "deprecated upstream")));
        assertThat(get(noted, ConditionTypes.TAINTED_CONFIGURATION)).extracting(Condition::status, Condition::reason)
                .containsExactly("True", "UnsupportedFeatureAnnotation");
        assertThat(get(noted, ConditionTypes.TAINTED_CONFIGURATION).message()).contains("kubevirt.kubevirt.io/jsonpatch");
        assertThat(get(noted, ConditionTypes.UNAPPLIED_FIELDS).message())
                .isEqualTo("accepted but not applied by this operator: vddkInitImage (deprecated upstream)");
    }

    @Test
    void aMissingOrUnreadableComponentHasNotReported() {
        List<Condition> absent = summarize(Stacks.withComponent(Stacks.converged(), 2, ComponentObservation.absent()));
        assertThat(get(absent, "Available").message()).isEqualTo("NetworkAddonsConfig has not reported Available");
        assertThat(get(absent, "Degraded").message()).isEqualTo("NetworkAddonsConfig has not reported Degraded");
        ComponentObservation garbled = new ComponentObservation(true, "1", 1L, 1L, null, null,
                Stacks.healthyConditions(NOW, null), null, Stacks.SYNCED, "status.conditions is not a list");
        List<Condition> unreadable = summarize(Stacks.withComponent(Stacks.converged(), 2, garbled));
        assertThat(get(unreadable, "Progressing").message()).isEqualTo("NetworkAddonsConfig has not reported Progressing");
    }

    @Test
    void anUpgradeIsProgressingWhateverTheComponentsSay() {
        List<Condition> c = summarize(Stacks.converged().withHyperConverged(Stacks.hco("0.9.0")));
        assertThat(get(c, "Progressing")).extracting(Condition::status, Condition::reason, Condition::message)
                .containsExactly("True", "UpgradeInProgress", "upgrading from 0.9.0 to 1.0.0");
    }
}
