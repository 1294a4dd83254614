package io.kubevirt.hco.api.v1beta1;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;

/** How VMs move to a new KubeVirt after an upgrade: without it they keep outdated launchers. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WorkloadUpdateStrategy {

    @JsonPropertyDescription("LiveMigrate and/or Evict; the least disruptive applicable one is used; empty means no automated update.")
    @Default("[\"LiveMigrate\"]")
    public List<String> workloadUpdateMethods = new ArrayList<>(List.of("LiveMigrate"));

    @JsonPropertyDescription("How many VMIs may be force-updated per batchEvictionInterval.")
    @Default("10")
    public Integer batchEvictionSize = 10;

    @JsonPropertyDescription("Interval between batches of forced updates, as a Go duration.")
    @Pattern(CertRotation.GO_DURATION)
    @Default("1m0s")
    public String batchEvictionInterval = "1m0s";
}
