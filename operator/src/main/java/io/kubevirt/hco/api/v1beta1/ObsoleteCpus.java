package io.kubevirt.hco.api.v1beta1;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class ObsoleteCpus {

    @JsonPropertyDescription("Minimum CPU model for basic CPU features, e.g. Penryn or Haswell (KubeVirt minCPUModel).")
    public String minCPUModel;

    @JsonPropertyDescription("CPU models VMs are not scheduled for, added to the always-obsolete ones.")
    public List<String> cpuModels;
}
