package io.kubevirt.hco.reconciler;

import io.kubevirt.hco.snapshot.StackSnapshots;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentSimulator;
import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;

/**
 * The operator against the Kubernetes test server (CRUD mode) with the simulator playing the
 * component operators. Methods run in order: they walk one stack through its life.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = OlmInstalledOperator.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@org.junit.jupiter.api.extension.ExtendWith(WhereTheOperatorWas.class)
class GateLifecycleTest {

    static final String NS = "kubevirt-hyperconverged";
    static final String OC = "hco-operator.v1.0.0";
    static final Duration PATIENCE = Duration.ofSeconds(30);

    @Inject
    KubernetesClient client;

    @Inject
    io.kubevirt.hco.gate.GatePublisher publisher;

    Cluster cluster;
    ComponentSimulator simulator;

    @BeforeEach
    void setUp() {
        cluster = new Cluster(client, NS);
        simulator = new ComponentSimulator(client, NS, "1.0.0");
    }

    @AfterEach
    void tearDown() {
        simulator.close();
    }

    @Test
    @Order(1)
    void startsWithTheGateHeldAndOpensWhenNothingIsInstalled() {
        await().atMost(PATIENCE).until(() -> cluster.upgradeable(OC) != null);
        // with no HyperConverged and no component CR there is nothing to interrupt
        await().atMost(PATIENCE).until(() -> "NoStackInstalled".equals(cluster.upgradeable(OC).get("reason")));
        assertThat(cluster.upgradeable(OC).get("status")).isEqualTo("True");
    }

    @Test
    @Order(2)
    void aHyperConvergedWithAnotherNameIsRejectedAndNothingIsCreated() {
        cluster.createHyperConverged("not-the-singleton");
        await().atMost(PATIENCE).until(() -> cluster.hcoCondition("not-the-singleton", "ReconcileComplete") != null);
        var condition = cluster.hcoCondition("not-the-singleton", "ReconcileComplete");
        assertThat(condition.status).isEqualTo("False");
        assertThat(condition.reason).isEqualTo("InvalidRequest");
        assertThat(condition.message).contains("kubevirt-hyperconverged").contains(NS);
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            assertThat(cluster.component(d)).as(d.name()).isNull();
        }
        client.resources(HyperConverged.class).inNamespace(NS).withName("not-the-singleton").delete();
    }

    @Test
    @Order(3)
    void aSilentComponentKeepsTheGateClosedUntilItReports() {
        try (WriteOrder order = new WriteOrder()) {
            order.watch(client, NS, io.kubevirt.hco.gate.OperatorConditionWriter.DEFINITION)
                    .watch(client, NS, new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder()
                            .withGroup("hco.kubevirt.io").withVersion("v1beta1").withKind("HyperConverged")
                            .withPlural("hyperconvergeds").withNamespaced(true).build());
            ComponentCatalog.ALL.forEach(d -> order.watch(client, NS, io.kubevirt.hco.components.ComponentResources.definition(d)));
            long created = Long.parseLong(
                    cluster.createHyperConverged(HyperConverged.SINGLETON_NAME).getMetadata().getResourceVersion());
            await().atMost(PATIENCE).until(() -> ComponentCatalog.ALL.stream().allMatch(d -> cluster.component(d) != null));
            await().atMost(PATIENCE).until(() -> ComponentCatalog.ALL.stream()
                    .allMatch(d -> order.first(d.kind(), r -> r.action().equals("ADDED")).isPresent()));
            // the "nothing installed" True is taken back before anything is written for the new stack:
            // the SDK's finalizer patch and every component CR come after the closing write
            long closed = order.first("OperatorCondition", r -> r.resourceVersion() > created
                    && "False".equals(Cluster.upgradeableOf(r.object()).get("status"))).orElseThrow();
            long finalizer = order.first("HyperConverged", r -> r.resourceVersion() > created
                    && HyperConverged.SINGLETON_NAME.equals(r.object().getMetadata().getName())
                    && r.object().getMetadata().getFinalizers() != null
                    && !r.object().getMetadata().getFinalizers().isEmpty()).orElseThrow();
            assertThat(closed).isLessThan(finalizer);
            for (ComponentDescriptor d : ComponentCatalog.ALL) {
                assertThat(closed).as(d.name()).isLessThan(order.first(d.kind(), r -> true).orElseThrow());
            }
        }
        simulator.behave("KubeVirt", Behaviour.SILENT);
        simulator.watch();
        await().atMost(PATIENCE).until(() -> blockedBy("ComponentNotReporting", "KubeVirt"));
        assertThat(cluster.upgradeable(OC).get("status")).isEqualTo("False");
        // the OperatorCondition is written first, the HyperConverged status right after it
        await().atMost(PATIENCE).until(() -> cluster.hyperConverged(HyperConverged.SINGLETON_NAME).getStatus().blockers
                .stream().anyMatch(b -> "KubeVirt".equals(b.component) && "ComponentNotReporting".equals(b.reason)));

        simulator.behave("KubeVirt", Behaviour.HEALTHY);
        await().atMost(PATIENCE).until(() -> "True".equals(cluster.upgradeable(OC).get("status")));
        assertThat(cluster.upgradeable(OC).get("reason")).isEqualTo("AsExpected");
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            assertThat(simulator.converged(d.name(), "1.0.0")).as(d.name()).isTrue();
        }
        assertThat(StackSnapshots.recordedVersion(cluster.hyperConverged(HyperConverged.SINGLETON_NAME)))
                .isEqualTo("1.0.0");
    }

    @Test
    @Order(4)
    void aDegradedComponentClosesTheGate() {
        simulator.behave("CDI", Behaviour.DEGRADED);
        simulator.watch();
        await().atMost(PATIENCE).until(() -> blockedBy("ComponentDegraded", "CDI"));
        // the OperatorCondition is written first, the HyperConverged status right after it
        await().atMost(PATIENCE)
                .until(() -> "True".equals(cluster.hcoCondition(HyperConverged.SINGLETON_NAME, "Degraded").status));
        simulator.behave("CDI", Behaviour.HEALTHY);
        await().atMost(PATIENCE).until(() -> "True".equals(cluster.upgradeable(OC).get("status")));
    }

    @Test
    @Order(4)
    void aFailedOperatorConditionWriteIsRetriedWithoutWaitingForAnotherEvent() {
        simulator.watch();
        await().atMost(PATIENCE).until(() -> "True".equals(cluster.upgradeable(OC).get("status")));
        simulator.close();
        // OLM's object is gone for a moment: the degrade's write fails
        client.genericKubernetesResources(io.kubevirt.hco.gate.OperatorConditionWriter.DEFINITION).inNamespace(NS)
                .withName(OC).delete();
        await().atMost(PATIENCE).until(() -> cluster.upgradeable(OC) == null);
        simulator.behave("KubeVirt", Behaviour.DEGRADED).tick("KubeVirt");
        await().atMost(PATIENCE).until(() -> publisher.operatorConditionWritePending());
        // it comes back empty, as OLM recreates it; no component writes anything any more
        cluster.createOperatorCondition(OC);
        await().atMost(PATIENCE).until(() -> cluster.upgradeable(OC) != null);
        assertThat(cluster.upgradeable(OC).get("status")).isEqualTo("False");
        assertThat(cluster.upgradeable(OC).get("reason")).isEqualTo("ComponentDegraded");
        simulator.behave("KubeVirt", Behaviour.HEALTHY);
    }

    @Test
    @Order(5)
    void garbageStatusMeansNotReportingAndNoHotLoop() {
        simulator.behave("SSP", Behaviour.GARBAGE);
        simulator.tick();
        await().atMost(PATIENCE).until(() -> blockedBy("ComponentNotReporting", "SSP"));
        assertThat((String) cluster.upgradeable(OC).get("message")).contains("status cannot be read");
        simulator.behave("SSP", Behaviour.HEALTHY);
        simulator.watch();
        await().atMost(PATIENCE).until(() -> "True".equals(cluster.upgradeable(OC).get("status")));
    }

    @Test
    @Order(6)
    void anOutOfBandSpecEditIsRevertedAndClosesTheGateMeanwhile() {
        // KubeVirt reports nothing more, so the gate cannot reopen before the test has looked
        simulator.behave("KubeVirt", Behaviour.SILENT);
        var kubevirt = cluster.component(ComponentCatalog.KUBEVIRT);
        var original = kubevirt.getAdditionalProperties().get("spec");
        kubevirt.getAdditionalProperties().put("spec", Map.of("uninstallStrategy", "RemoveWorkloads"));
        io.kubevirt.hco.components.ComponentResources.of(client, ComponentCatalog.KUBEVIRT, NS).resource(kubevirt)
                .update();
        await().atMost(PATIENCE).until(() -> io.kubevirt.hco.components.SpecJson.sameJson(original,
                cluster.component(ComponentCatalog.KUBEVIRT).getAdditionalProperties().get("spec")));
        // reverted, but not yet observed by KubeVirt: closed
        await().atMost(PATIENCE).until(() -> blockedBy("ComponentStale", "KubeVirt"));
        simulator.behave("KubeVirt", Behaviour.HEALTHY);
        simulator.watch();
        await().atMost(PATIENCE).until(() -> "True".equals(cluster.upgradeable(OC).get("status")));
    }

    @Test
    @Order(6)
    void aFieldRemovedFromTheHyperConvergedIsObservedOnlyOnceTheComponentSawTheRemoval() {
        editHyperConverged(hco -> annotate(hco, "true"));
        // the component operators start after the change reached their CRs: they find operands
        // rendered from the spec before it, and roll them (this raced on CI: see docs/testing.md)
        await().atMost(PATIENCE).until(() -> networkAddons().containsKey("ovs"));
        simulator.watch();
        await().atMost(PATIENCE).until(() -> networkAddons().containsKey("ovs")
                && "True".equals(cluster.upgradeable(OC).get("status")));

        // cluster-network-addons reports nothing more: the removal below is written, but not seen by it
        simulator.behave("NetworkAddonsConfig", Behaviour.SILENT);
        editHyperConverged(hco -> annotate(hco, null));
        await().atMost(PATIENCE).until(() -> !networkAddons().containsKey("ovs"));
        // the pass that wrote the removal published its decision before the HyperConverged status
        await().atMost(PATIENCE).until(() -> cluster.hyperConverged(HyperConverged.SINGLETON_NAME).getStatus()
                .blockers.stream().anyMatch(b -> "ComponentStale".equals(b.reason) && "NetworkAddonsConfig".equals(b.component)));
        assertThat(cluster.upgradeable(OC).get("status")).isEqualTo("False");

        simulator.behave("NetworkAddonsConfig", Behaviour.HEALTHY);
        await().atMost(PATIENCE).until(() -> "True".equals(cluster.upgradeable(OC).get("status")));
    }

    /** Sets (or, with null, removes) the annotation that deploys cluster-network-addons' OVS, keeping the others. */
    private static void annotate(HyperConverged hco, String deployOvs) {
        Map<String, String> annotations = new java.util.HashMap<>(
                hco.getMetadata().getAnnotations() == null ? Map.of() : hco.getMetadata().getAnnotations());
        if (deployOvs == null) {
            annotations.remove("deployOVS");
        } else {
            annotations.put("deployOVS", deployOvs);
        }
        hco.getMetadata().setAnnotations(annotations);
    }

    /**
     * The real cdi-operator renders no part of spec.config but the log verbosity and pull secrets,
     * and writes nothing after a change of the storage class, nor after its removal (so does the
     * simulated one): the gate reopens on the status CDI already wrote for what it renders, and
     * does not wait for good (it did, before the writer kept that record).
     */
    @Test
    @Order(6)
    void aChangeCdiDoesNotRenderReopensTheGateThoughCdiWritesNothing() {
        simulator.watch();
        await().atMost(PATIENCE).until(() -> "True".equals(cluster.upgradeable(OC).get("status")));
        for (String storageClass : new String[] { "fast", null }) {
            long writes = simulator.statusWrites();
            String cdiStatus = statusOf(ComponentCatalog.CDI);
            editHyperConverged(hco -> hco.getSpec().scratchSpaceStorageClass = storageClass);
            await().atMost(PATIENCE).until(() -> java.util.Objects.equals(storageClass, cdiConfig().get("scratchSpaceStorageClass"))
                    && "True".equals(cluster.upgradeable(OC).get("status")));
            assertThat(statusOf(ComponentCatalog.CDI)).as("CDI wrote nothing for it").isEqualTo(cdiStatus);
            assertThat(simulator.statusWrites()).as("no component wrote its status").isEqualTo(writes);
        }
    }

    private String statusOf(io.kubevirt.hco.components.ComponentDescriptor d) {
        return io.kubevirt.hco.components.ObservationReader.statusFingerprint(cluster.component(d));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> networkAddons() {
        var spec = (Map<String, Object>) cluster.component(ComponentCatalog.NETWORK_ADDONS).getAdditionalProperties().get("spec");
        return spec == null ? Map.of() : spec;
    }

    /** An edit as kubectl makes one: on a conflict with the operator's status write, read again and retry. */
    private HyperConverged editHyperConverged(java.util.function.Consumer<HyperConverged> change) {
        for (int attempt = 1;; attempt++) {
            try {
                return client.resources(HyperConverged.class).inNamespace(NS).withName(HyperConverged.SINGLETON_NAME)
                        .edit(hco -> {
                            change.accept(hco);
                            return hco;
                        });
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> cdiConfig() {
        var spec = (Map<String, Object>) cluster.component(ComponentCatalog.CDI).getAdditionalProperties().get("spec");
        Object config = spec == null ? null : spec.get("config");
        return config == null ? Map.of() : (Map<String, Object>) config;
    }

    @Test
    @Order(7)
    void healthAndMetricsAreServedOnTheManagementPort() {
        io.restassured.RestAssured.given().port(9001).get("/q/health/live").then().statusCode(200);
        io.restassured.RestAssured.given().port(9001).get("/q/health/ready").then().statusCode(200)
                .body(org.hamcrest.Matchers.containsString("hco-upgrade-gate"));
        String metrics = io.restassured.RestAssured.given().port(9001).get("/q/metrics").then().statusCode(200)
                .extract().asString();
        assertThat(metrics).contains("kubevirt_hco_upgradeable 1.0", "kubevirt_hco_hyperconverged_cr_exists 1.0",
                "kubevirt_hco_component_ready{component=\"KubeVirt\"} 1.0",
                "kubevirt_hco_out_of_band_modifications_total{component_name=\"KubeVirt\"} 1.0",
                "kubevirt_hco_gate_transitions_total", "kubevirt_hco_gate_closed_seconds_total{reason=\"ComponentNotReporting\"}",
                "kubevirt_hco_upgrade_duration_seconds_count{kind=\"install\"} 1.0",
                "kubevirt_hco_upgrade_duration_seconds_bucket",
                "kubevirt_hco_component_convergence_seconds{component=\"KubeVirt\"}",
                "# HELP kubevirt_hco_upgradeable 1 when the Upgradeable gate is open",
                "kubevirt_hco_gate_evaluation_seconds_count", "reconciliations_success_total{controller_name=\"hyperconverged\"}");
    }

    @Test
    @Order(7)
    void theExplainEndpointShowsTheDecisionWithItsEvidence() {
        var json = io.restassured.RestAssured.given().port(9001).get("/q/hco/gate").then().statusCode(200).extract()
                .jsonPath();
        assertThat(json.getBoolean("upgradeable")).isTrue();
        assertThat(json.getString("reason")).isEqualTo("AsExpected");
        assertThat(json.getList("components.name")).containsExactly("KubeVirt", "CDI", "NetworkAddonsConfig", "SSP");
        assertThat(json.getList("components.expectedVersion")).containsOnly("1.0.0");
        assertThat(json.getString("components[0].evidence")).isEqualTo("OBSERVED_GENERATION");
        assertThat(json.getString("components[1].evidence")).isEqualTo("STATUS_WRITTEN_AFTER_SPEC");
        assertThat(json.getString("upgrade.phase")).isEqualTo("COMPLETE");
        assertThat(json.getList("upgrade.done")).hasSize(4);

        String text = io.restassured.RestAssured.given().port(9001).queryParam("format", "text").get("/q/hco/gate")
                .then().statusCode(200).extract().asString();
        assertThat(text).startsWith("Upgradeable=True (AsExpected)").contains("KubeVirt", "converged");

        // every alert's default runbook_url is served here, from the runbooks packaged with this version
        assertThat(io.restassured.RestAssured.given().port(9001).get("/q/hco/runbooks/HCOUpgradeStuck").then()
                .statusCode(200).extract().asString()).startsWith("# HCOUpgradeStuck");
        io.restassured.RestAssured.given().port(9001).get("/q/hco/runbooks/NoSuchAlert").then().statusCode(404);
        io.restassured.RestAssured.given().port(9001).get("/q/hco/runbooks/..%2Fapplication.properties").then()
                .statusCode(404);
    }

    @Test
    @Order(8)
    void deletingTheHyperConvergedRemovesEveryComponentCrThroughTheFinalizer() {
        client.resources(HyperConverged.class).inNamespace(NS).withName(HyperConverged.SINGLETON_NAME).delete();
        await().atMost(PATIENCE).until(() -> cluster.hyperConverged(HyperConverged.SINGLETON_NAME) == null
                && ComponentCatalog.ALL.stream().allMatch(d -> cluster.component(d) == null));
        // nothing left to interrupt: the idle watcher reopens the gate with its own reason
        await().atMost(PATIENCE).until(() -> "NoStackInstalled".equals(cluster.upgradeable(OC).get("reason")));
    }

    private boolean blockedBy(String reason, String component) {
        Map<String, Object> upgradeable = cluster.upgradeable(OC);
        return upgradeable != null && "False".equals(upgradeable.get("status")) && reason.equals(upgradeable.get("reason"))
                && String.valueOf(upgradeable.get("message")).startsWith(component + ":");
    }
}
