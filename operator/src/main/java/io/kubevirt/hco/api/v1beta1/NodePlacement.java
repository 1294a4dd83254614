package io.kubevirt.hco.api.v1beta1;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Toleration;

/** Same shape as the component operators' NodePlacement, so it is copied onto them unchanged. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class NodePlacement {

    @JsonPropertyDescription("Labels a node must carry to run these pods.")
    @Size(max = 64)
    public Map<String, String> nodeSelector;

    @JsonPropertyDescription("Affinity rules for these pods.")
    public Affinity affinity;

    @JsonPropertyDescription("Taints these pods tolerate.")
    @Size(max = 64)
    public List<Toleration> tolerations;
}
