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
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentSimulator;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;

/**
 * SSP on auto, on a cluster without OpenShift's templates API, and the first lookup of that API
 * is refused (a 403). The failed pass must leave no trace: SSP is not recorded as part of the stack, so
 * the next pass, whose lookup answers "not served", leaves SSP out and the gate opens on the
 * other three.
 */
@QuarkusTest
@TestProfile(DiscoveryFailureTest.SspAuto.class)
@WithKubernetesTestServer(crud = true, setup = DiscoveryFailureTest.FirstLookupFails.class)
class DiscoveryFailureTest {

    @Inject
    KubernetesClient client;

    @Test
    void aFailedPlatformLookupIsRetriedAndRecordsNothing() {
        Cluster cluster = new Cluster(client, GateLifecycleTest.NS);
        java.util.concurrent.atomic.AtomicBoolean failedPassSeen = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ComponentSimulator simulator = new ComponentSimulator(client, GateLifecycleTest.NS, "1.0.0");
                var watch = client.resources(HyperConverged.class).inNamespace(GateLifecycleTest.NS)
                        .watch(new io.fabric8.kubernetes.client.Watcher<>() {
                            @Override
                            public void eventReceived(Action action, HyperConverged hco) {
                                if (hco.getStatus() != null) {
                                    hco.getStatus().conditions.stream().filter(c -> "ReconcileComplete".equals(c.type))
                                            .forEach(c -> seen.add(c.message));
                                }
                                if (hco.getStatus() != null && hco.getStatus().conditions.stream().anyMatch(
                                        c -> "ReconcileComplete".equals(c.type) && c.message.contains("RBAC not propagated yet"))) {
                                    failedPassSeen.set(true);
                                }
                            }

                            @Override
                            public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {
                            }
                        })) {
            cluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
            simulator.start(100);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> "True".equals(cluster.upgradeable(GateLifecycleTest.OC).get("status")));
            assertThat(failedPassSeen).as("the failed pass wrote its status; seen: " + seen).isTrue();
            HyperConverged hco = cluster.hyperConverged(HyperConverged.SINGLETON_NAME);
            assertThat(hco.getStatus().relatedObjects).extracting(r -> r.kind).doesNotContain("SSP")
                    .contains("KubeVirt", "CDI", "NetworkAddonsConfig");
            assertThat(cluster.component(ComponentCatalog.SSP)).isNull();
        }
    }

    public static class FirstLookupFails extends OlmInstalledOperator {
        @Override
        public void accept(KubernetesServer server) {
            super.accept(server);
            // the first lookup is refused (RBAC not propagated yet: a 5xx would be retried by the client
            // itself); then what a plain Kubernetes API server answers (404; the test server would
            // invent a group). A 404 is remembered, a failure is not
            String path = "/apis/template.openshift.io";
            server.expect().get().withPath(path).andReturn(403, "forbidden: RBAC not propagated yet").once();
            server.expect().get().withPath(path).andReturn(404, "").always();
        }
    }

    public static class SspAuto implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("HCO_COMPONENT_SSP", "auto");
        }
    }
}
