package io.kubevirt.hco.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;

/** Whether a CR holds our intent is compared again only when its spec can have changed. */
class WrittenSpecsTest {

    static final ComponentDescriptor KV = ComponentCatalog.KUBEVIRT;
    final WrittenSpecs written = new WrittenSpecs();
    final Map<String, Object> desired = Map.of("configuration", Map.of("developerConfiguration", Map.of("featureGates",
            java.util.List.of("Snapshot"))));

    @Test
    void aStatusChangeReusesTheComparisonAndASpecChangeIsComparedAgain() {
        assertThat(written.inSync(KV, cr("uid-1", 3, desired, "a"), desired)).isTrue();

        // a status change: same object, same generation (the API server moves it with the spec only)
        assertThat(written.inSync(KV, cr("uid-1", 3, desired, "b"), desired)).isTrue();

        // someone edited the spec: the generation moved, the comparison runs and finds it
        Map<String, Object> edited = Map.of("configuration", Map.of("developerConfiguration", Map.of("featureGates",
                java.util.List.of())));
        assertThat(written.inSync(KV, cr("uid-1", 4, edited, "b"), desired)).isFalse();

        // the CR deleted and created again at generation 4 with our intent: another uid, compared again
        assertThat(written.inSync(KV, cr("uid-2", 4, desired, "b"), desired)).isTrue();
        assertThat(written.inSync(KV, cr("uid-2", 4, desired, "b"), Map.of("other", true)))
                .as("another desired spec is compared again").isFalse();
    }

    @Test
    void withoutAGenerationEveryCallCompares() {
        Map<String, Object> edited = Map.of("configuration", Map.of());
        assertThat(written.inSync(KV, cr("uid-1", null, desired, "a"), desired)).isTrue();
        assertThat(written.inSync(KV, cr("uid-1", null, edited, "a"), desired)).isFalse();
    }

    private static GenericKubernetesResource cr(String uid, Integer generation, Map<String, Object> spec, String status) {
        GenericKubernetesResource cr = new GenericKubernetesResource();
        cr.setApiVersion("kubevirt.io/v1");
        cr.setKind("KubeVirt");
        cr.setMetadata(new ObjectMetaBuilder().withName("kubevirt-kubevirt-hyperconverged").withUid(uid)
                .withGeneration(generation == null ? null : generation.longValue()).build());
        cr.setAdditionalProperty("spec", spec);
        cr.setAdditionalProperty("status", Map.of("phase", status));
        return cr;
    }
}
