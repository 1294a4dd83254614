package io.kubevirt.hco.components;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/** An older component CRD: what it does not declare is left out; what it keeps whole stays whole. */
class CrdSchemaPruningTest {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @SuppressWarnings("unchecked")
    static Map<String, Object> yaml(String text) throws Exception {
        return YAML.readValue(text, Map.class);
    }

    @Test
    void undeclaredFieldsAreDroppedAndNamed() throws Exception {
        Map<String, Object> schema = yaml("""
                type: object
                properties:
                  configuration:
                    type: object
                    properties:
                      evictionStrategy: {type: string}
                      ksmConfiguration: {type: object, x-kubernetes-preserve-unknown-fields: true}
                      obsoleteCPUModels: {type: object, additionalProperties: {type: boolean}}
                      permittedHostDevices:
                        type: object
                        properties:
                          pciHostDevices:
                            type: array
                            items: {type: object, properties: {resourceName: {type: string}}}
                  uninstallStrategy: {type: string}
                """);
        Map<String, Object> spec = yaml("""
                configuration:
                  evictionStrategy: LiveMigrate
                  vmRolloutStrategy: LiveUpdate
                  ksmConfiguration: {nodeLabelSelector: {matchLabels: {a: b}}}
                  obsoleteCPUModels: {486: true}
                  permittedHostDevices:
                    pciHostDevices: [{resourceName: gpu, pciVendorSelector: "10DE:1EB8"}]
                uninstallStrategy: ""
                serviceMonitorNamespace: ns
                """);
        List<String> dropped = new ArrayList<>();
        Map<String, Object> kept = CrdSchemaPruning.prune(spec, schema, dropped);
        assertThat(dropped).containsExactly(".configuration.vmRolloutStrategy",
                ".configuration.permittedHostDevices.pciHostDevices[0].pciVendorSelector", ".serviceMonitorNamespace");
        assertThat(kept).isEqualTo(yaml("""
                configuration:
                  evictionStrategy: LiveMigrate
                  ksmConfiguration: {nodeLabelSelector: {matchLabels: {a: b}}}
                  obsoleteCPUModels: {486: true}
                  permittedHostDevices:
                    pciHostDevices: [{resourceName: gpu}]
                uninstallStrategy: ""
                """));
    }

    @Test
    void withoutASchemaNothingIsDropped() throws Exception {
        Map<String, Object> spec = yaml("{a: {b: 1}}");
        List<String> dropped = new ArrayList<>();
        assertThat(CrdSchemaPruning.prune(spec, null, dropped)).isEqualTo(spec);
        assertThat(dropped).isEmpty();
    }
}
