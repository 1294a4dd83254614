package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class NodePlacementConfig {

    @JsonPropertyDescription("Node selector, affinity and tolerations for the pods of this group; empty means anywhere.")
    public NodePlacement nodePlacement;
}
