package io.kubevirt.hco.api.v1beta1;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/** Mediated device types KubeVirt creates on the nodes (all nodes, or per node selector). */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@ValidationRule(value = "(has(self.mediatedDeviceTypes) && size(self.mediatedDeviceTypes)>0) "
        + "|| (has(self.mediatedDevicesTypes) && size(self.mediatedDevicesTypes)>0)",
        message = "for mediatedDevicesConfiguration a non-empty mediatedDeviceTypes or mediatedDevicesTypes(deprecated) is required")
public class MediatedDevicesConfiguration {

    @JsonPropertyDescription("Mediated device types to create on every node that can.")
    public List<String> mediatedDeviceTypes;

    @JsonPropertyDescription("Deprecated: use mediatedDeviceTypes.")
    public List<String> mediatedDevicesTypes;

    @JsonPropertyDescription("Mediated device types for the nodes a selector matches.")
    public List<NodeMediatedDeviceTypes> nodeMediatedDeviceTypes;

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @ValidationRule(value = "(has(self.mediatedDeviceTypes) && size(self.mediatedDeviceTypes)>0) "
            + "|| (has(self.mediatedDevicesTypes) && size(self.mediatedDevicesTypes)>0)",
            message = "for nodeMediatedDeviceTypes a non-empty mediatedDeviceTypes or mediatedDevicesTypes(deprecated) is required")
    public static class NodeMediatedDeviceTypes {
        @JsonPropertyDescription("Labels of the nodes these types are for.")
        @Required
        public Map<String, String> nodeSelector;
        public List<String> mediatedDeviceTypes;
        @JsonPropertyDescription("Deprecated: use mediatedDeviceTypes.")
        public List<String> mediatedDevicesTypes;
    }

    /** The list in use: upstream prefers the current name and falls back to the deprecated one. */
    public static List<String> types(List<String> current, List<String> deprecated) {
        if (current != null && !current.isEmpty()) {
            return current;
        }
        return deprecated == null || deprecated.isEmpty() ? null : deprecated;
    }
}
