package io.kubevirt.hco.api.v1;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.kubevirt.hco.api.v1beta1.MediatedDevicesConfiguration.NodeMediatedDeviceTypes;

/** v1beta1's mediated device types, plus v1's switch (v1beta1's featureGates.disableMDevConfiguration). */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class MediatedDevicesConfiguration {

    public Boolean enabled;
    public List<String> mediatedDeviceTypes;
    public List<String> mediatedDevicesTypes;
    public List<NodeMediatedDeviceTypes> nodeMediatedDeviceTypes;
}
