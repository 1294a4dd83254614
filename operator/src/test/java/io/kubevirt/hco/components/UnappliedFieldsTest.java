package io.kubevirt.hco.components;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;

class UnappliedFieldsTest {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void upstreamsSampleSetsNothingThatIsNotApplied() throws Exception {
        var sample = YAML.readTree(UpstreamApi.SAMPLE).path("spec");
        assertThat(UnappliedFields.setIn(YAML.treeToValue(sample, HyperConvergedSpec.class))).isEmpty();
    }

    @Test
    void eachUnappliedFieldSetAwayFromItsDefaultIsNamed() throws Exception {
        String spec = """
                localStorageClassName: local
                vddkInitImage: quay.io/vddk:8
                tektonPipelinesNamespace: pipelines
                tektonTasksNamespace: tasks
                commonBootImageNamespace: golden
                applicationAwareConfig: {vmiCalcConfigName: VmiPodUsage}
                enableApplicationAwareQuota: true
                """;
        var given = YAML.readValue(spec, HyperConvergedSpec.class);
        assertThat(UnappliedFields.setIn(given)).containsExactly("localStorageClassName", "vddkInitImage",
                "tektonPipelinesNamespace", "tektonTasksNamespace", "commonBootImageNamespace", "applicationAwareConfig",
                "enableApplicationAwareQuota");
        assertThat(UnappliedFields.setIn(new HyperConvergedSpec())).isEmpty();
    }
}
