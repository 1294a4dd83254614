package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceConversionBuilder;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kubevirt.hco.api.conversion.HyperConvergedConversion;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.FieldMappingTest;

/**
 * Both API versions on a real API server, converted by the operator's webhook over HTTPS: every
 * upstream field written as v1beta1 reads back as v1 (nothing pruned by the v1 schema) and, written
 * back as v1, reads as the same v1beta1; v1-only fields survive v1beta1 storage; upstream's sample in
 * its v1 form applies; and the operator reconciles a HyperConverged written as v1.
 */
class ConversionIT extends E2eScenario {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    OperatorProcess op;

    @BeforeEach
    void serveTheWebhook() throws Exception {
        WebhookCertificate cert = WebhookCertificate.create(api.dir());
        int port = RealApiServer.freePort();
        olm.installCsv("1.0.0");
        op = operator("hco-webhook", "1.0.0", Map.of("HCO_WEBHOOK_ENABLED", "true", "HCO_WEBHOOK_PORT",
                Integer.toString(port), "HCO_WEBHOOK_CERT_FILE", cert.certificate().toString(), "HCO_WEBHOOK_KEY_FILE",
                cert.key().toString(), "QUARKUS_LOG_CATEGORY__IO_KUBEVIRT_HCO_WEBHOOK__LEVEL", "DEBUG"));
        op.awaitReady(60);
        // "nothing installed" opens first: a HyperConverged created while that check runs would race it
        within(60).until(() -> olm.saw("1.0.0", "True"));
        var crds = admin.apiextensions().v1().customResourceDefinitions();
        var crd = crds.withName("hyperconvergeds.hco.kubevirt.io").get();
        crd.getSpec().setConversion(new CustomResourceConversionBuilder().withStrategy("Webhook").withNewWebhook()
                .withConversionReviewVersions("v1").withNewClientConfig().withUrl("https://127.0.0.1:" + port + "/convert")
                .withCaBundle(cert.caBundle()).endClientConfig().endWebhook().build());
        // the generated CRD does not serve v1: whoever wires the webhook does (the chart, here the test)
        crd.getSpec().getVersions().stream().filter(v -> v.getName().equals("v1")).forEach(v -> v.setServed(true));
        crd.getMetadata().setManagedFields(null);
        crds.resource(crd).update();
    }

    NonNamespaceOperation<GenericKubernetesResource, ?, Resource<GenericKubernetesResource>> in(String apiVersion) {
        return admin.genericKubernetesResources(apiVersion, "HyperConverged").inNamespace(NS);
    }

    GenericKubernetesResource read(String apiVersion) {
        return in(apiVersion).withName(HyperConverged.SINGLETON_NAME).get();
    }

    static GenericKubernetesResource object(String apiVersion, Object spec) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(apiVersion);
        r.setKind("HyperConverged");
        r.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(HyperConverged.SINGLETON_NAME)
                .withNamespace(NS).build());
        r.getAdditionalProperties().put("spec", spec);
        return r;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(GenericKubernetesResource r) {
        return new ObjectMapper().convertValue(r, LinkedHashMap.class);
    }

    @Test
    void everyFieldWrittenAsV1beta1ReadsAsV1AndComesBackUnchanged() throws Exception {
        Object spec = YAML.readValue(FieldMappingTest.everyUpstreamField(), Map.class);
        // within the first 60 s the webhook may still be starting for the API server: retry the create
        within(60).ignoreExceptions().until(() -> in(HyperConvergedConversion.V1BETA1)
                .resource(object(HyperConvergedConversion.V1BETA1, spec)).create() != null);
        // once the operator has put its finalizer on, the spec is still the one written
        within(60).until(() -> read(HyperConvergedConversion.V1BETA1).getMetadata().getFinalizers()
                .contains("kubevirt.io/hyperconverged"));
        GenericKubernetesResource stored = read(HyperConvergedConversion.V1BETA1);
        assertThat(io.kubevirt.hco.components.OwnedFields.firstDifference(spec, stored.getAdditionalProperties().get("spec")))
                .as("the user's spec after the operator's first reconcile").isNull();
        GenericKubernetesResource asV1 = read(HyperConvergedConversion.V1);
        assertThat(asV1.getApiVersion()).isEqualTo("hco.kubevirt.io/v1");
        // what the v1 schema kept is exactly what the conversion made: nothing pruned on the way
        Object expected = HyperConvergedConversion.convert(asMap(stored), HyperConvergedConversion.V1).get("spec");
        assertThat(asV1.getAdditionalProperties().get("spec")).isEqualTo(expected);

        // written back as v1 (an update through v1), it is the same v1beta1 object; the operator adds
        // its finalizer and writes the status meanwhile: on a conflict, read again and write again
        within(30).ignoreExceptions().until(() -> in(HyperConvergedConversion.V1).resource(
                read(HyperConvergedConversion.V1)).update() != null);
        GenericKubernetesResource again = read(HyperConvergedConversion.V1BETA1);
        assertThat(again.getAdditionalProperties().get("spec")).isEqualTo(stored.getAdditionalProperties().get("spec"));
        assertThat(again.getMetadata().getAnnotations()).isEqualTo(stored.getMetadata().getAnnotations());
    }

    @Test
    @SuppressWarnings("unchecked")
    void aHyperConvergedWrittenAsV1IsStoredReconciledAndReadBackAsWritten() throws Exception {
        Map<String, Object> v1Spec = YAML.readValue("""
                featureGates: [{name: downwardMetrics}, {name: videoConfig, enabled: "False"}]
                virtualization:
                  evictionStrategy: LiveMigrateIfPossible
                  hypervisors: [{name: kvm}]
                  virtualMachineOptions: {defaultCPUModel: Haswell}
                networking:
                  kubeMacPoolConfiguration: {rangeStart: "02:00:00:00:00:00", rangeEnd: "02:FF:FF:FF:FF:FF"}
                deployment:
                  uninstallStrategy: RemoveWorkloads
                """, Map.class);
        within(60).ignoreExceptions().until(() -> in(HyperConvergedConversion.V1)
                .resource(object(HyperConvergedConversion.V1, v1Spec)).create() != null);
        GenericKubernetesResource stored = read(HyperConvergedConversion.V1BETA1);
        assertThat(stored.getMetadata().getAnnotations()).containsKey(HyperConvergedConversion.V1_ONLY);
        @SuppressWarnings("unchecked")
        Map<String, Object> v1beta1Spec = (Map<String, Object>) stored.getAdditionalProperties().get("spec");
        assertThat(v1beta1Spec).containsEntry("evictionStrategy", "LiveMigrateIfPossible")
                .containsEntry("defaultCPUModel", "Haswell").containsEntry("uninstallStrategy", "RemoveWorkloads");

        @SuppressWarnings("unchecked")
        Map<String, Object> back = (Map<String, Object>) read(HyperConvergedConversion.V1).getAdditionalProperties().get("spec");
        // the written gates come back as written; v1beta1's defaults add the other gates, as upstream's do
        assertThat((List<Object>) back.get("featureGates")).containsAll((List<Object>) v1Spec.get("featureGates"));
        Map<String, Object> withoutGates = new LinkedHashMap<>(v1Spec);
        withoutGates.remove("featureGates");
        assertThat(io.kubevirt.hco.components.OwnedFields.firstDifference(withoutGates, back)).as("read back as v1: " + back)
                .isNull();
        assertThat(read(HyperConvergedConversion.V1).getMetadata().getAnnotations()).as("no conversion annotation shown")
                .doesNotContainKeys(HyperConvergedConversion.V1_ONLY, HyperConvergedConversion.V1BETA1_ONLY);

        // the operator reads v1beta1: the settings reach the component
        simulator.watch();
        within(60).until(() -> {
            var kv = cluster.component(ComponentCatalog.KUBEVIRT);
            return kv != null && kv.getAdditionalProperties().get("spec").toString().contains("LiveMigrateIfPossible");
        });
        within(60).until(() -> olm.saw("1.0.0", "True"));
    }

    @Test
    void upstreamsSampleAppliesInItsV1Form() throws Exception {
        @SuppressWarnings("unchecked")
        Map<String, Object> sample = YAML.readValue(FieldMappingTest.upstreamSample(), Map.class);
        Map<String, Object> v1 = HyperConvergedConversion.convert(sample, HyperConvergedConversion.V1);
        within(60).ignoreExceptions().until(() -> in(HyperConvergedConversion.V1)
                .resource(object(HyperConvergedConversion.V1, v1.get("spec"))).create() != null);
        Object storedSpec = read(HyperConvergedConversion.V1BETA1).getAdditionalProperties().get("spec");
        // the sample's empty infra: {} and workloads: {} have no v1 form (v1 has only their nodePlacement)
        @SuppressWarnings("unchecked")
        Map<String, Object> expected = new LinkedHashMap<>((Map<String, Object>) sample.get("spec"));
        expected.values().removeIf(v -> v instanceof Map<?, ?> m && m.isEmpty());
        assertThat(io.kubevirt.hco.components.OwnedFields.firstDifference(expected, storedSpec))
                .as("stored: " + storedSpec).isNull();
        assertThat(List.of(read(HyperConvergedConversion.V1).getApiVersion())).containsExactly("hco.kubevirt.io/v1");
    }
}
