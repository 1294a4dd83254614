package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class HigherWorkloadDensity {

    @JsonPropertyDescription("Memory a VMI sees, as a percentage of its pod's (KubeVirt memoryOvercommit); over 100 overcommits.")
    @Min(10)
    @Default("100")
    public Integer memoryOvercommitPercentage = 100;
}
