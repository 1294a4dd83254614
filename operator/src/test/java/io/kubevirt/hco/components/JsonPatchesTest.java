package io.kubevirt.hco.components;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;

/** Upstream's JSON patch annotations, and what this operator refuses beyond upstream. */
class JsonPatchesTest {

    static final String KV = "kubevirt.kubevirt.io/jsonpatch";

    static Map<String, Object> kubevirt(String patch) {
        return ComponentCatalog.KUBEVIRT.desiredSpec(new HyperConvergedSpec(),
                new SpecContext("ns").withAnnotations(Map.of(KV, patch)));
    }

    @Test
    void aPatchIsAppliedOnTopOfTheDerivedSpec() {
        Map<String, Object> spec = kubevirt("[{\"op\":\"add\",\"path\":\"/spec/configuration/cpuRequest\",\"value\":\"100m\"},"
                + "{\"op\":\"replace\",\"path\":\"/spec/configuration/evictionStrategy\",\"value\":\"None\"}]");
        @SuppressWarnings("unchecked")
        Map<String, Object> configuration = (Map<String, Object>) spec.get("configuration");
        assertThat(configuration).containsEntry("cpuRequest", "100m").containsEntry("evictionStrategy", "None");
    }

    @Test
    void eachComponentReadsItsOwnAnnotation() {
        var ctx = new SpecContext("ns").withAnnotations(Map.of("containerizeddataimporter.kubevirt.io/jsonpatch",
                "[{\"op\":\"add\",\"path\":\"/spec/config/preallocation\",\"value\":true}]"));
        @SuppressWarnings("unchecked")
        Map<String, Object> config = (Map<String, Object>) ComponentCatalog.CDI.desiredSpec(new HyperConvergedSpec(), ctx).get("config");
        assertThat(config).containsEntry("preallocation", true);
        assertThat(ComponentCatalog.KUBEVIRT.desiredSpec(new HyperConvergedSpec(), ctx))
                .isEqualTo(ComponentCatalog.KUBEVIRT.desiredSpec(new HyperConvergedSpec(), new SpecContext("ns")));
    }

    @Test
    void aPatchThatIsNotAJsonArrayIsRefusedWithAnExample() {
        assertThatThrownBy(() -> kubevirt("{\"op\":\"add\"}")).isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining(KV).hasMessageContaining("JSON array");
        assertThatThrownBy(() -> kubevirt("[{op: add")).isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining("is not JSON");
    }

    @Test
    void aPatchThatDoesNotApplyIsRefused() {
        assertThatThrownBy(() -> kubevirt("[{\"op\":\"replace\",\"path\":\"/spec/nothing/here\",\"value\":1}]"))
                .isInstanceOf(InvalidSpecException.class).hasMessageContaining("does not apply");
        assertThatThrownBy(() -> kubevirt("[{\"op\":\"test\",\"path\":\"/spec/uninstallStrategy\",\"value\":\"x\"}]"))
                .isInstanceOf(InvalidSpecException.class).hasMessageContaining("does not apply");
    }

    @Test
    void aPatchOutsideTheSpecOrOnAFieldTheGateDependsOnIsRefused() {
        assertThatThrownBy(() -> kubevirt("[{\"op\":\"add\",\"path\":\"/metadata/labels/x\",\"value\":\"y\"}]"))
                .isInstanceOf(InvalidSpecException.class).hasMessageContaining("only change fields under /spec/");
        assertThatThrownBy(() -> kubevirt("[{\"op\":\"add\",\"path\":\"/spec/imageTag\",\"value\":\"v9\"}]"))
                .isInstanceOf(InvalidSpecException.class).hasMessageContaining("upgrade gate depends on it");
        assertThatThrownBy(() -> kubevirt("[{\"op\":\"copy\",\"from\":\"/status/observedKubeVirtVersion\",\"path\":\"/spec/x\"}]"))
                .isInstanceOf(InvalidSpecException.class).hasMessageContaining("from '/status/observedKubeVirtVersion'");
        assertThatThrownBy(() -> kubevirt("[{\"op\":\"replace\",\"path\":\"/spec\",\"value\":{}}]"))
                .isInstanceOf(InvalidSpecException.class);
    }

    @Test
    void theMetricCountsOperationsPerAnnotation() {
        var counts = JsonPatches.operationCounts(ComponentCatalog.ALL, Map.of(KV, "[{},{}]",
                "ssp.kubevirt.io/jsonpatch", "not json", "unrelated", "[]"));
        assertThat(counts).containsExactly(Map.entry(KV, 2), Map.entry("ssp.kubevirt.io/jsonpatch", 0));
    }
}
