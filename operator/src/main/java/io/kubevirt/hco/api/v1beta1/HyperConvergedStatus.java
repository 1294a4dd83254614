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

    // upstream's status fields this operator does not write: kept as found, so an adopted upstream
    // install loses nothing (see HyperConvergedStatusWriter)

    @JsonPropertyDescription("Upstream's cron schedule of its common golden images; kept as found.")
    public String dataImportSchedule;

    @JsonPropertyDescription("Upstream's view of the golden images given to SSP; kept as found.")
    public List<com.fasterxml.jackson.databind.JsonNode> dataImportCronTemplates;

    @JsonPropertyDescription("Upstream's aggregated health (healthy, warning, error); kept as found.")
    public String systemHealthStatus;

    @JsonPropertyDescription("Upstream's record of whether the cluster has more than one worker node; kept as found.")
    public Boolean infrastructureHighlyAvailable;

    @JsonPropertyDescription("Upstream's record of the nodes' architectures; kept as found.")
    @io.fabric8.crd.generator.annotation.PreserveUnknownFields
    public com.fasterxml.jackson.databind.JsonNode nodeInfo;
}
