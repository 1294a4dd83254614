package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.components.FieldMappingTest;
import io.kubevirt.hco.components.OwnedFields;
import io.kubevirt.hco.components.SpecContext;

/**
 * Taking over an upstream install: the HyperConverged (upstream's finalizer, upstream's status
 * fields) and the component CRs as upstream's operator left them, written by its field manager with
 * its labels, the components running. This operator, started on that, opens the gate without
 * changing a component's spec (no generation moves: no component redeploys), and keeps every field
 * of the HyperConverged, its status fields included.
 */
class AdoptionIT extends E2eScenario {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    @SuppressWarnings("unchecked")
    void anUpstreamInstallIsTakenOverWithoutLosingAFieldOrRedeployingAComponent() throws Exception {
        ClusterSetup.createNamespace(admin, NS);
        Map<String, Object> sample = YAML.readValue(FieldMappingTest.upstreamSample(), Map.class);
        Map<String, Object> spec = (Map<String, Object>) sample.get("spec");
        ((Map<String, Object>) spec.get("featureGates")).put("downwardMetrics", true);
        spec.put("evictionStrategy", "LiveMigrate");

        GenericKubernetesResource hco = new GenericKubernetesResource();
        hco.setApiVersion("hco.kubevirt.io/v1beta1");
        hco.setKind("HyperConverged");
        hco.setMetadata(new ObjectMetaBuilder().withName(HyperConverged.SINGLETON_NAME).withNamespace(NS)
                .withFinalizers("kubevirt.io/hyperconverged").withLabels(Map.of("app", "kubevirt-hyperconverged")).build());
        hco.getAdditionalProperties().put("spec", spec);
        var hcos = admin.genericKubernetesResources("hco.kubevirt.io/v1beta1", "HyperConverged").inNamespace(NS);
        GenericKubernetesResource created = hcos.resource(hco).create();
        created.getAdditionalProperties().put("status", YAML.readValue("""
                conditions:
                - {type: ReconcileComplete, status: "True", reason: ReconcileCompleted, message: Reconcile completed successfully, lastTransitionTime: "2026-12-01T10:00:00Z"}
                - {type: Available, status: "True", reason: ReconcileCompleted, message: Reconcile completed successfully, lastTransitionTime: "2026-12-01T10:00:00Z"}
                - {type: Progressing, status: "False", reason: ReconcileCompleted, message: Reconcile completed successfully, lastTransitionTime: "2026-12-01T10:00:00Z"}
                - {type: Degraded, status: "False", reason: ReconcileCompleted, message: Reconcile completed successfully, lastTransitionTime: "2026-12-01T10:00:00Z"}
                - {type: Upgradeable, status: "True", reason: ReconcileCompleted, message: Reconcile completed successfully, lastTransitionTime: "2026-12-01T10:00:00Z"}
                versions: [{name: operator, version: 1.0.0}]
                observedGeneration: 1
                systemHealthStatus: healthy
                infrastructureHighlyAvailable: true
                nodeInfo: {workloadsArchitectures: [amd64], controlPlaneArchitectures: [amd64]}
                """, Map.class));
        hcos.resource(created).updateStatus();

        // the component CRs as upstream derives them (its semantics, which this operator's mapping
        // follows: FieldMappingTest), created by upstream's manager, with its labels
        HyperConvergedSpec typed = YAML.convertValue(spec, HyperConvergedSpec.class);
        SpecContext upstreamContext = new SpecContext(NS, "1.0.0", 0, Set.of("KubeVirt", "CDI", "NetworkAddonsConfig", "SSP"),
                Map.of(), Map.of());
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            GenericKubernetesResource cr = new GenericKubernetesResource();
            cr.setApiVersion(d.apiVersion());
            cr.setKind(d.kind());
            cr.setMetadata(new ObjectMetaBuilder().withName(d.crName()).withNamespace(d.namespaced() ? NS : null)
                    .withLabels(Map.of("app", "kubevirt-hyperconverged", "app.kubernetes.io/managed-by", "hco-operator",
                            "app.kubernetes.io/part-of", "hyperconverged-cluster"))
                    .build());
            cr.getAdditionalProperties().put("spec", d.desiredSpec(typed, upstreamContext));
            // created by another field manager than this operator's (the test client's), as upstream's were
            ComponentResources.of(admin, d, NS).resource(cr).create();
        }
        simulator.watch();
        within(60).until(() -> ComponentCatalog.ALL.stream().allMatch(d -> simulator.converged(d.name(), "1.0.0")));
        Map<String, Long> generations = new LinkedHashMap<>();
        Map<String, Object> specs = new LinkedHashMap<>();
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            GenericKubernetesResource cr = cluster.component(d);
            generations.put(d.name(), cr.getMetadata().getGeneration());
            specs.put(d.name(), cr.getAdditionalProperties().get("spec"));
        }
        Object hcoSpecBefore = hcos.withName(HyperConverged.SINGLETON_NAME).get().getAdditionalProperties().get("spec");

        olm.installCsv("1.0.0");
        operator("hco-adopting", "1.0.0");
        within(90).until(() -> olm.saw("1.0.0", "True"));

        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            GenericKubernetesResource cr = cluster.component(d);
            if (d.statusSubresource()) {
                // CDI (no status subresource) moves its generation with every status write; the others must not move
                assertThat(cr.getMetadata().getGeneration()).as(d.name() + " spec untouched: generation").isEqualTo(
                        generations.get(d.name()));
            }
            assertThat(OwnedFields.firstDifference(specs.get(d.name()), cr.getAdditionalProperties().get("spec")))
                    .as(d.name() + " spec as upstream left it").isNull();
            assertThat(cr.getMetadata().getLabels()).containsEntry("app", "kubevirt-hyperconverged");
        }
        GenericKubernetesResource after = hcos.withName(HyperConverged.SINGLETON_NAME).get();
        assertThat(after.getAdditionalProperties().get("spec")).isEqualTo(hcoSpecBefore);
        assertThat(after.getMetadata().getFinalizers()).containsExactly("kubevirt.io/hyperconverged");
        Map<String, Object> status = (Map<String, Object>) after.getAdditionalProperties().get("status");
        assertThat(status).containsEntry("systemHealthStatus", "healthy").containsEntry("infrastructureHighlyAvailable", true)
                .containsKey("nodeInfo");
        assertThat((List<Map<String, Object>>) status.get("versions")).contains(Map.of("name", "operator", "version", "1.0.0"));
    }
}
