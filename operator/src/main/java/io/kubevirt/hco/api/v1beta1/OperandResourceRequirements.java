package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class OperandResourceRequirements {

    @JsonPropertyDescription("Requests and limits of CDI's storage workload pods (importer, uploader, cloner).")
    public ResourceRequirements storageWorkloads;

    @JsonPropertyDescription("Physical CPU requested per virtual CPU is 1/vmiCPUAllocationRatio (KubeVirt cpuAllocationRatio).")
    @Min(1)
    @Default("10")
    public Integer vmiCPUAllocationRatio = 10;

    @JsonPropertyDescription("Namespaces whose VMIs get a CPU limit equal to their vCPUs.")
    public LabelSelector autoCPULimitNamespaceLabelSelector;
}
