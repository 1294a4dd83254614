package io.kubevirt.hco.api.v1beta1;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class HyperConvergedStatus {

    @JsonPropertyDescription("ReconcileComplete, Available, Progressing, Degraded and Upgradeable.")
    public List<StatusCondition> conditions = new ArrayList<>();

    @JsonPropertyDescription("Versions recorded once the whole stack converged at them; 'operator' is the upgrade record.")
    public List<RecordedVersion> versions = new ArrayList<>();

    @JsonPropertyDescription("The generation of the spec last applied to the component CRs.")
    public Long observedGeneration;

    @JsonPropertyDescription("What keeps the Upgradeable gate closed, first blocker first.")
    public List<GateBlocker> blockers = new ArrayList<>();

    @JsonPropertyDescription("The component CRs this HyperConverged owns.")
    public List<RelatedObject> relatedObjects = new ArrayList<>();
}
