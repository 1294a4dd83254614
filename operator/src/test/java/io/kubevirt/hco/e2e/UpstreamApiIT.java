package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.StatusCondition;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.OwnedFields;

/**
 * Upstream's HyperConverged API on a real API server, with the CRD this project generates: upstream's
 * own sample and a spec setting every upstream v1beta1 field are accepted and kept field for field
 * (nothing pruned), the singleton name is enforced by the API server, upstream's names are served;
 * and the operator's escape hatch and not-applied report, end to end.
 */
class UpstreamApiIT extends E2eScenario {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());


    Resource<GenericKubernetesResource> hco(String name) {
        return admin.genericKubernetesResources(HyperConverged.GROUP + "/" + HyperConverged.VERSION, "HyperConverged")
                .inNamespace(NS).withName(name);
    }

    GenericKubernetesResource create(String yaml) throws Exception {
        GenericKubernetesResource r = YAML.readValue(yaml, GenericKubernetesResource.class);
        r.getMetadata().setNamespace(NS);
        return admin.genericKubernetesResources(HyperConverged.GROUP + "/" + HyperConverged.VERSION, "HyperConverged")
                .inNamespace(NS).resource(r).create();
    }

    static String samples() {
        return io.kubevirt.hco.components.FieldMappingTest.upstreamSample();
    }

    @Test
    void upstreamsSampleAndEveryUpstreamFieldAreAcceptedAndKept() throws Exception {
        ClusterSetup.createNamespace(admin, NS);
        String sample = samples();
        create(sample);
        Object sampleSpec = YAML.readValue(sample, Map.class).get("spec");
        Object stored = hco(HyperConverged.SINGLETON_NAME).get().getAdditionalProperties().get("spec");
        assertThat(OwnedFields.firstDifference(sampleSpec, stored)).as("upstream's sample, stored: " + stored).isNull();
        hco(HyperConverged.SINGLETON_NAME).delete();
        within(30).until(() -> hco(HyperConverged.SINGLETON_NAME).get() == null);

        String every = "apiVersion: hco.kubevirt.io/v1beta1\nkind: HyperConverged\nmetadata:\n  name: kubevirt-hyperconverged\n"
                + "spec:\n" + io.kubevirt.hco.components.FieldMappingTest.everyUpstreamField().indent(2);
        create(every);
        @SuppressWarnings("unchecked")
        Map<String, Object> given = (Map<String, Object>) YAML.readValue(every, Map.class).get("spec");
        Object kept = hco(HyperConverged.SINGLETON_NAME).get().getAdditionalProperties().get("spec");
        assertThat(given.keySet()).as("the test sets every upstream field")
                .containsAll(io.kubevirt.hco.components.FieldMappingTest.upstreamFields());
        assertThat(OwnedFields.firstDifference(given, kept)).as("every field kept as written: " + kept).isNull();
    }

    @Test
    void theApiServerEnforcesTheSingletonNameAndServesUpstreamsNames() throws Exception {
        ClusterSetup.createNamespace(admin, NS);
        assertThatThrownBy(() -> create(samples().replace("name: kubevirt-hyperconverged", "name: second")))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("the HyperConverged is a singleton named kubevirt-hyperconverged");
        APIResource resource = admin.getApiResources(HyperConverged.GROUP + "/" + HyperConverged.VERSION).getResources()
                .stream().filter(r -> r.getName().equals("hyperconvergeds")).findFirst().orElseThrow();
        assertThat(resource.getShortNames()).containsExactly("hco", "hcos");
        assertThat(resource.getCategories()).containsExactly("all");
    }

    @Test
    void jsonPatchesAreAppliedReportedAndRefusedWhenTheyTouchTheGate() throws Exception {
        OperatorProcess op = installedAndUpgradeable("1.0.0");
        // what upstream sets besides the spec: CDI takes its CR's config as the authority over CDIConfig
        assertThat(cluster.component(ComponentCatalog.CDI).getMetadata().getAnnotations())
                .containsEntry("cdi.kubevirt.io/configAuthority", "");
        editHyperConverged(h -> annotate(h, "kubevirt.kubevirt.io/jsonpatch",
                "[{\"op\":\"add\",\"path\":\"/spec/configuration/cpuModel\",\"value\":\"Skylake-Server\"}]"));
        within(60).until(() -> condition("TaintedConfiguration") != null
                && "Skylake-Server".equals(kubevirtConfiguration().get("cpuModel")));
        assertThat(condition("TaintedConfiguration").reason).isEqualTo("UnsupportedFeatureAnnotation");
        assertThat(op.metrics()).contains(
                "kubevirt_hco_unsafe_modifications{annotation_name=\"kubevirt.kubevirt.io/jsonpatch\"} 1.0");
        within(60).until(() -> "True".equals(olm.last("1.0.0").split("/")[0]));

        // beyond upstream: a patch on what decides KubeVirt's version is refused, the CR kept, the gate closed
        editHyperConverged(h -> annotate(h, "kubevirt.kubevirt.io/jsonpatch",
                "[{\"op\":\"add\",\"path\":\"/spec/imageTag\",\"value\":\"v9.9.9\"}]"));
        within(60).until(() -> condition("ReconcileComplete") != null && "False".equals(condition("ReconcileComplete").status));
        assertThat(condition("ReconcileComplete").message).contains("/spec/imageTag", "upgrade gate depends on it");
        within(60).until(() -> olm.last("1.0.0").startsWith("False/"));
        assertThat(cluster.component(ComponentCatalog.KUBEVIRT).getAdditionalProperties().get("spec").toString())
                .doesNotContain("v9.9.9");

        // an upstream field this operator does not apply is said so; removing the patch reopens
        editHyperConverged(h -> {
            h.getMetadata().getAnnotations().remove("kubevirt.kubevirt.io/jsonpatch");
            h.getSpec().vddkInitImage = "quay.io/example/vddk:8";
        });
        within(60).until(() -> condition("UnappliedFields") != null && condition("TaintedConfiguration") == null);
        assertThat(condition("UnappliedFields").message).contains("vddkInitImage");
        within(60).until(() -> olm.saw("1.0.0", "True") && olm.last("1.0.0").startsWith("True"));
        assertThat(op.metrics()).contains(
                "kubevirt_hco_unsafe_modifications{annotation_name=\"kubevirt.kubevirt.io/jsonpatch\"} 0.0");
    }

    private static void annotate(HyperConverged h, String key, String value) {
        Map<String, String> annotations = new java.util.LinkedHashMap<>(
                h.getMetadata().getAnnotations() == null ? Map.of() : h.getMetadata().getAnnotations());
        annotations.put(key, value);
        h.getMetadata().setAnnotations(annotations);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> kubevirtConfiguration() {
        var kv = cluster.component(ComponentCatalog.KUBEVIRT);
        Map<String, Object> spec = (Map<String, Object>) kv.getAdditionalProperties().get("spec");
        return (Map<String, Object>) spec.getOrDefault("configuration", Map.of());
    }

    private StatusCondition condition(String type) {
        return cluster.hcoCondition(HyperConverged.SINGLETON_NAME, type);
    }
}
