package io.kubevirt.hco.api.v1;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.kubevirt.hco.api.v1beta1.EvictionStrategy;
import io.kubevirt.hco.api.v1beta1.HigherWorkloadDensity;
import io.kubevirt.hco.api.v1beta1.PermittedHostDevices;
import io.kubevirt.hco.api.v1beta1.TuningPolicy;
import io.kubevirt.hco.api.v1beta1.WorkloadUpdateStrategy;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.vmiCPUAllocationRatio) || self.vmiCPUAllocationRatio > 0",
        message = "vmiCPUAllocationRatio must be greater than 0")
public class Virtualization {

    public TuningPolicy tuningPolicy;
    public LiveMigrationConfig liveMigrationConfig;
    public PermittedHostDevices permittedHostDevices;
    public MediatedDevicesConfiguration mediatedDevicesConfiguration;
    public WorkloadUpdateStrategy workloadUpdateStrategy;
    public List<String> obsoleteCPUModels;
    public EvictionStrategy evictionStrategy;
    public VirtualMachineOptions virtualMachineOptions;
    public HigherWorkloadDensity higherWorkloadDensity;
    @PreserveUnknownFields
    public JsonNode liveUpdateConfiguration;
    @PreserveUnknownFields
    public JsonNode ksmConfiguration;
    @PreserveUnknownFields
    public JsonNode changedBlockTrackingLabelSelectors;
    @Size(max = 1)
    public List<JsonNode> hypervisors;
    public RoleAggregationStrategy roleAggregationStrategy;
    @Min(1)
    public Integer vmiCPUAllocationRatio;
    public LabelSelector autoCPULimitNamespaceLabelSelector;

    public enum RoleAggregationStrategy {
        AggregateToDefault, Manual
    }
}
