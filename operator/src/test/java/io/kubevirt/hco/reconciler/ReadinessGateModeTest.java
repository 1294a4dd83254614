package io.kubevirt.hco.reconciler;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.simulator.ComponentSimulator;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.RestAssured;

/**
 * Readiness gate mode (an OLM without OperatorCondition support): readiness is DOWN while the
 * upgrade runs and UP once it completed; liveness and metrics are served throughout.
 */
@QuarkusTest
@TestProfile(ReadinessGateModeTest.ReadinessMode.class)
@WithKubernetesTestServer(crud = true, setup = UpgradeResumeTest.InstalledByVersion1.class)
class ReadinessGateModeTest {

    @Inject
    KubernetesClient client;

    @Test
    void readinessFollowsTheUpgradeWhileMetricsStayServed() {
        try (ComponentSimulator simulator = new ComponentSimulator(client, GateLifecycleTest.NS, "1.0.0")) {
            simulator.start(100);
            await().atMost(Duration.ofSeconds(30)).until(() -> readiness() == 503
                    && RestAssured.given().port(9001).get("/q/metrics").asString()
                            .contains("kubevirt_hco_upgrade_in_progress 1.0"));
            RestAssured.given().port(9001).get("/q/health/live").then().statusCode(200);

            simulator.runVersionAll("2.0.0");
            await().atMost(Duration.ofSeconds(30)).until(() -> readiness() == 200);
            RestAssured.given().port(9001).get("/q/metrics").then().statusCode(200);
        }
    }

    private static int readiness() {
        return RestAssured.given().port(9001).get("/q/health/ready").statusCode();
    }

    public static class ReadinessMode implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(new UpgradeResumeTest.Version2().getConfigOverrides());
            config.put("hco.gate.mode", "readiness");
            return config;
        }
    }
}
