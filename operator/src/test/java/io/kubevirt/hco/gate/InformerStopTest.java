package io.kubevirt.hco.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.reconciler.OlmInstalledOperator;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentSimulator;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.RestAssured;

/**
 * An informer that stops for good (fabric8 stops one on a watch event it cannot decode) freezes its
 * cache: the open gate must close, with the reason, and the process must ask to exit; liveness
 * reports the stopped informer. The test server, which validates nothing, stores a HyperConverged
 * that the operator's typed informer cannot decode: a real API server's schema refuses it.
 * Its own profile: the application is left with a stopped informer.
 */
@QuarkusTest
@TestProfile(InformerStopTest.OwnApplication.class)
@WithKubernetesTestServer(crud = true, setup = OlmInstalledOperator.class)
class InformerStopTest {

    static final String NS = "kubevirt-hyperconverged";
    static final String OC = "hco-operator.v1.0.0";

    @Inject
    KubernetesClient client;

    final List<Integer> exits = new CopyOnWriteArrayList<>();

    @BeforeEach
    void recordExits() {
        QuarkusMock.installMockForType(new ProcessExit() {
            @Override
            public void exit(int code) {
                exits.add(code);
            }
        }, ProcessExit.class);
    }

    @Test
    void aStoppedInformerClosesTheOpenGateAndAsksForARestart() {
        Cluster cluster = new Cluster(client, NS);
        try (ComponentSimulator simulator = new ComponentSimulator(client, NS, "1.0.0")) {
            cluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
            simulator.start(100);
            await().atMost(Duration.ofSeconds(30)).until(() -> "True".equals(cluster.upgradeable(OC).get("status")));
            assertThat(exits).isEmpty();
            RestAssured.given().port(9001).get("/q/health/live").then().statusCode(200);

            // featureGates is an object: a list cannot be decoded into it
            client.genericKubernetesResources(new ResourceDefinitionContext.Builder().withGroup("hco.kubevirt.io")
                    .withVersion("v1beta1").withKind("HyperConverged").withPlural("hyperconvergeds").withNamespaced(true)
                    .build()).inNamespace(NS).withName(HyperConverged.SINGLETON_NAME).edit(hco -> {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> spec = (Map<String, Object>) hco.getAdditionalProperties().get("spec");
                        spec.put("featureGates", List.of("not", "an", "object"));
                        return hco;
                    });

            await().atMost(Duration.ofSeconds(30)).until(() -> "False".equals(cluster.upgradeable(OC).get("status")));
            assertThat(cluster.upgradeable(OC).get("reason")).isEqualTo("EvaluationError");
            assertThat((String) cluster.upgradeable(OC).get("message")).contains("hyperconvergeds")
                    .contains("stopped with an error");
            assertThat(exits).containsExactly(1);
            RestAssured.given().port(9001).get("/q/health/live").then().statusCode(503);
            assertThat(RestAssured.given().port(9001).get("/q/health/live").asString()).contains("informersStopped");

        }
    }

    public static class OwnApplication implements QuarkusTestProfile {
    }
}
