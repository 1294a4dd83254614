package io.kubevirt.hco.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.simulator.Cluster;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;

/** A mistyped HCO_COMPONENT_* value: a condition that names it and says what is allowed, the gate closed, nothing written. */
@QuarkusTest
@TestProfile(InvalidComponentSettingTest.Mistyped.class)
@WithKubernetesTestServer(crud = true, setup = OlmInstalledOperator.class)
class InvalidComponentSettingTest {

    @Inject
    KubernetesClient client;

    @Test
    void aMistypedSettingIsAConditionNotARetryLoop() {
        Cluster cluster = new Cluster(client, GateLifecycleTest.NS);
        cluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
        await().atMost(Duration.ofSeconds(30)).until(
                () -> cluster.hcoCondition(HyperConverged.SINGLETON_NAME, "ReconcileComplete") != null);
        var condition = cluster.hcoCondition(HyperConverged.SINGLETON_NAME, "ReconcileComplete");
        assertThat(condition.status).isEqualTo("False");
        assertThat(condition.message).contains("HCO_COMPONENT_CDI").contains("'sometimes'")
                .contains("enabled, disabled or auto");
        assertThat(cluster.upgradeable(GateLifecycleTest.OC).get("status")).isEqualTo("False");
        assertThat(cluster.upgradeable(GateLifecycleTest.OC).get("reason")).isEqualTo("EvaluationError");
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            assertThat(cluster.component(d)).as(d.name()).isNull();
        }
    }

    public static class Mistyped implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("HCO_COMPONENT_CDI", "sometimes");
        }
    }
}
