package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;
import io.kubevirt.hco.api.v1beta1.NodePlacement;
import io.kubevirt.hco.api.v1beta1.NodePlacementConfig;
import io.kubevirt.hco.api.v1beta1.UninstallStrategy;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.SpecContext;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.components.OwnedFields;
import io.kubevirt.hco.simulator.ComponentHabits;

/**
 * The component contracts as the real operators keep them, on a real API server with the
 * project's structural component CRDs: unknown fields pruned (here refused: the operator runs with
 * strict field validation), CRD defaults, CDI without a status subresource, whole-second times,
 * status written only on change, component clocks 10 s off, a slow follower, cluster-network-addons'
 * refreshed heartbeats, mutating admission on the spec fields the operator owns.
 */
class RealContractsIT extends E2eScenario {

    @Test
    void everyFieldTheOperatorWritesIsKnownToTheComponentCrds() throws Exception {
        ClusterSetup.createNamespace(admin, NS);
        for (HyperConvergedSpec spec : List.of(new HyperConvergedSpec(), everyOptionSet(),
                io.kubevirt.hco.components.FieldMappingTest.everyMappedFieldSet())) {
            for (ComponentDescriptor d : ComponentCatalog.ALL) {
                Map<String, Object> desired = d.desiredSpec(spec, new SpecContext(NS));
                GenericKubernetesResource cr = new GenericKubernetesResource();
                cr.setApiVersion(d.apiVersion());
                cr.setKind(d.kind());
                cr.setMetadata(new ObjectMetaBuilder().withName(d.crName()).withNamespace(d.namespaced() ? NS : null)
                        .build());
                cr.getAdditionalProperties().put("spec", desired);
                // Strict: an unknown field is a 400 naming it, not a warning and a pruned field
                GenericKubernetesResource kept = ComponentResources.of(admin, d, NS).resource(cr).patch(
                        new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY).withFieldManager("test")
                                .withFieldValidation("Strict").withDryRun(List.of("All")).build(),
                        Serialization.asJson(cr));
                assertThat(OwnedFields.firstDifference(desired, kept.getAdditionalProperties().get("spec")))
                        .as(d.name() + " keeps every field written").isNull();
            }
        }
    }

    /**
     * A KubeVirt CRD of an older release, without fields this operator's mapping writes: server-side
     * apply would refuse every write ("field not declared in schema"), so the operator leaves them
     * out, and the stack converges and opens.
     */
    @Test
    void anOlderComponentCrdWithoutSomeFieldsStillConvergesAndOpens() throws Exception {
        var crds = admin.apiextensions().v1().customResourceDefinitions();
        var kubevirt = crds.withName(ComponentCatalog.KUBEVIRT.crdName()).get();
        var spec = kubevirt.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().getProperties().get("spec");
        spec.getProperties().remove("serviceMonitorNamespace");
        spec.getProperties().get("configuration").getProperties().remove("vmRolloutStrategy");
        spec.getProperties().get("configuration").getProperties().get("migrations").getProperties()
                .remove("allowAutoConverge");
        kubevirt.getMetadata().setManagedFields(null);
        crds.resource(kubevirt).update();

        // the default field validation (the suite's operators run Strict, to catch any field the mapping misnames)
        olm.installCsv("1.0.0");
        OperatorProcess op = operator("hco-warn", "1.0.0", Map.of("HCO_FIELD_VALIDATION", "Warn"));
        createHyperConverged();
        simulator.watch();
        within(60).until(() -> olm.saw("1.0.0", "True"));
        Map<String, Object> written = spec(ComponentCatalog.KUBEVIRT);
        assertThat(written).doesNotContainKey("serviceMonitorNamespace").containsKey("workloadUpdateStrategy");
        assertThat(op.log()).contains("does not declare", "spec.configuration.migrations.allowAutoConverge",
                "spec.serviceMonitorNamespace");
    }

    @Test
    void installAndUpgradeOpenTheGateWithEventOnlyComponentsOffClocksAndRealStatusHabits() throws Exception {
        simulator.habits("CDI", ComponentHabits.PLAIN.withClockOffset(Duration.ofSeconds(10)))
                .habits("NetworkAddonsConfig", ComponentHabits.PLAIN.withClockOffset(Duration.ofSeconds(-10))
                        .withObserveDelay(Duration.ofMillis(1500)).refreshingStaleHeartbeats())
                .habits("SSP", ComponentHabits.PLAIN.withObserveDelay(Duration.ofSeconds(2)));
        installedAndUpgradeable("1.0.0");
        assertThat(cluster.component(ComponentCatalog.CDI).getMetadata().getGeneration())
                .as("CDI's status writes are whole-object updates: they move its generation").isGreaterThan(1L);
        quietFor(Duration.ofSeconds(5), "an installed, idle stack");

        olm.installCsv("2.0.0");
        operators.get(0).close();
        OperatorProcess v2 = operator("hco-v2", "2.0.0");
        v2.awaitReady(60);
        within(30).until(() -> "False/UpgradeInProgress".equals(olm.last("2.0.0")));
        simulator.runVersionAll("2.0.0");
        within(60).until(() -> olm.saw("2.0.0", "True"));

        // a spec change reaches the slow follower and the heartbeat-refreshing component too
        editHyperConverged(h -> {
            h.getSpec().infra.nodePlacement = new NodePlacement();
            h.getSpec().infra.nodePlacement.nodeSelector = Map.of("example.io/infra", "true");
        });
        within(30).until(() -> !olm.upgradeable("2.0.0"));
        within(60).until(() -> olm.upgradeable("2.0.0"));
        quietFor(Duration.ofSeconds(5), "the upgraded, idle stack");
    }

    @Test
    void aComponentThatGoesSilentAfterASpecChangeKeepsTheGateClosed() throws Exception {
        installedAndUpgradeable("1.0.0");
        simulator.habits("NetworkAddonsConfig", ComponentHabits.PLAIN.goingSilentAfterSpecChange());
        editHyperConverged(h -> {
            h.getSpec().workloads.nodePlacement = new NodePlacement();
            h.getSpec().workloads.nodePlacement.nodeSelector = Map.of("example.io/workloads", "true");
        });
        within(30).until(() -> {
            HyperConverged hco = cluster.hyperConverged(HyperConverged.SINGLETON_NAME);
            return hco.getStatus().blockers.stream().anyMatch(b -> "NetworkAddonsConfig".equals(b.component)
                    && "ComponentStale".equals(b.reason) && b.message.contains("has not written its status"));
        });
        holdsFor(Duration.ofSeconds(8), () -> !olm.upgradeable("1.0.0"),
                "OLM must not read Upgradeable while NetworkAddonsConfig has not reported on the new spec");
    }

    @Test
    void anOutOfBandEditOfAnOwnedFieldIsRevertedOnceAndCountedOnce() throws Exception {
        OperatorProcess op = installedAndUpgradeable("1.0.0");
        // as kubectl edit makes it: the whole object back, our annotations untouched
        GenericKubernetesResource cr = cluster.component(ComponentCatalog.KUBEVIRT);
        spec(cr).put("uninstallStrategy", "RemoveWorkloads");
        ComponentResources.of(admin, ComponentCatalog.KUBEVIRT, NS).resource(cr).update();
        within(30).until(() -> "BlockUninstallIfWorkloadsExist".equals(spec(ComponentCatalog.KUBEVIRT).get("uninstallStrategy")));
        within(60).until(() -> olm.upgradeable("1.0.0"));
        assertThat(op.metrics()).contains("kubevirt_hco_out_of_band_modifications_total{component_name=\"KubeVirt\"} 1.0");
        quietFor(Duration.ofSeconds(5), "after the revert");
    }

    @Test
    void serverDefaultsAndMutatingAdmissionOfOwnedFieldsCauseNoWriteLoop() throws Exception {
        ClusterSetup.create(admin, """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicy
                metadata: {name: migrations-capped}
                spec:
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [kubevirt.io]
                      apiVersions: [v1]
                      operations: [CREATE, UPDATE]
                      resources: [kubevirts]
                  failurePolicy: Fail
                  reinvocationPolicy: Never
                  mutations:
                  - patchType: JSONPatch
                    jsonPatch:
                      expression: >
                        [JSONPatch{op: "replace", path: "/spec/configuration/migrations/parallelMigrationsPerCluster", value: 3}]
                """);
        ClusterSetup.create(admin, """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicyBinding
                metadata: {name: migrations-capped}
                spec: {policyName: migrations-capped}
                """);
        installedAndUpgradeable("1.0.0");
        assertThat(((Map<?, ?>) ((Map<?, ?>) spec(ComponentCatalog.KUBEVIRT).get("configuration")).get("migrations"))
                .get("parallelMigrationsPerCluster")).as("the policy rewrote a field the operator owns").isEqualTo(3);
        assertThat(((Map<?, ?>) spec(ComponentCatalog.SSP).get("templateValidator")).get("replicas"))
                .as("SSP's CRD default").isEqualTo(2);
        quietFor(Duration.ofSeconds(5), "a stack whose specs the API server rewrites");
        assertThat(operators.get(0).metrics()).doesNotContain("kubevirt_hco_out_of_band_modifications_total{");
    }

    /**
     * Upstream's single-node defaults follow the Nodes the API server holds, through the Node
     * informer's cache that keeps only their roles (NodeRoleStore): one worker, then two, then a
     * worker's label taken away (a Node update the informer lets through only for its roles), then
     * no labelled worker left, where every node but the control plane counts.
     */
    @Test
    void theNodesRolesMoveUpstreamsSingleNodeDefaults() throws Exception {
        String worker = "node-role.kubernetes.io/worker";
        admin.nodes().resource(node("cp-0", "node-role.kubernetes.io/control-plane")).create();
        admin.nodes().resource(node("worker-0", worker)).create();
        installedAndUpgradeable("1.0.0");
        assertThat(evictionStrategy()).as("one worker").isEqualTo("None");

        admin.nodes().resource(node("worker-1", worker)).create();
        within(30).until(() -> "LiveMigrate".equals(evictionStrategy()));
        // settled first, so that no pass but the one the Node's own event wakes can see the change
        // (the next periodic pass is 60 s away)
        within(60).until(this::upgradeable);
        admin.nodes().withName("worker-1").edit(n -> {
            n.getMetadata().getLabels().remove(worker);
            return n;
        });
        within(30).until(() -> "None".equals(evictionStrategy()));
        admin.nodes().resource(node("plain-0")).create();
        assertThat(evictionStrategy()).as("still one labelled worker").isEqualTo("None");
        within(60).until(this::upgradeable);
        admin.nodes().withName("worker-0").delete();
        within(30).until(() -> "LiveMigrate".equals(evictionStrategy()));
        within(60).until(this::upgradeable);
    }

    private boolean upgradeable() {
        return "True".equals(cluster.upgradeable(OperatorProcess.operatorConditionName("1.0.0")).get("status"));
    }

    private static io.fabric8.kubernetes.api.model.Node node(String name, String... roles) {
        Map<String, String> labels = new java.util.HashMap<>(Map.of("kubernetes.io/hostname", name));
        for (String role : roles) {
            labels.put(role, "");
        }
        return new io.fabric8.kubernetes.api.model.NodeBuilder().withNewMetadata().withName(name).withLabels(labels)
                .endMetadata().build();
    }

    @SuppressWarnings("unchecked")
    private String evictionStrategy() {
        return (String) ((Map<String, Object>) spec(ComponentCatalog.KUBEVIRT).get("configuration")).get("evictionStrategy");
    }

    private Map<String, Object> spec(ComponentDescriptor d) {
        return spec(cluster.component(d));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource cr) {
        return (Map<String, Object>) cr.getAdditionalProperties().get("spec");
    }

    /** Nothing is written for {@code period}: no component CR, no HyperConverged, no OperatorCondition revision. */
    private void quietFor(Duration period, String what) throws Exception {
        String before = versions();
        holdsFor(period, () -> before.equals(versions()), what + ": no write (resourceVersions " + before + ")");
    }

    private String versions() {
        StringBuilder out = new StringBuilder();
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            out.append(d.name()).append('=').append(cluster.component(d).getMetadata().getResourceVersion()).append(' ');
        }
        out.append("hco=").append(cluster.hyperConverged(HyperConverged.SINGLETON_NAME).getMetadata().getResourceVersion());
        return out.toString();
    }

    private static HyperConvergedSpec everyOptionSet() {
        HyperConvergedSpec spec = new HyperConvergedSpec();
        spec.featureGates.downwardMetrics = true;
        spec.featureGates.persistentReservation = true;
        spec.featureGates.alignCPUs = true;
        spec.featureGates.enableMultiArchBootImageImport = true;
        NodePlacement placement = new NodePlacement();
        placement.nodeSelector = Map.of("node-role.kubernetes.io/infra", "");
        Toleration toleration = new Toleration("NoSchedule", "infra", "Exists", 30L, null);
        placement.tolerations = List.of(toleration);
        placement.affinity = new io.fabric8.kubernetes.api.model.AffinityBuilder().withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution().addNewNodeSelectorTerm()
                .addNewMatchExpression().withKey("zone").withOperator("In").withValues("a").endMatchExpression()
                .endNodeSelectorTerm().endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().build();
        spec.infra = new NodePlacementConfig();
        spec.infra.nodePlacement = placement;
        spec.workloads = new NodePlacementConfig();
        spec.workloads.nodePlacement = placement;
        spec.uninstallStrategy = UninstallStrategy.RemoveWorkloads;
        spec.liveMigrationConfig.bandwidthPerMigration = "64Mi";
        return spec;
    }
}
