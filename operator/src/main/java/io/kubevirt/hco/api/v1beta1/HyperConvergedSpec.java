package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Default;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class HyperConvergedSpec {

    @JsonPropertyDescription("Optional features, off unless set to true.")
    public FeatureGates featureGates = new FeatureGates();

    @JsonPropertyDescription("Where the stack's infrastructure components (controllers, webhooks) run.")
    public NodePlacementConfig infra = new NodePlacementConfig();

    @JsonPropertyDescription("Where workload-related components (handlers, VM pods' helpers) run.")
    public NodePlacementConfig workloads = new NodePlacementConfig();

    @JsonPropertyDescription("Rotation of the stack's internal CA and server certificates.")
    public CertRotationConfig certConfig = new CertRotationConfig();

    @JsonPropertyDescription("Cluster-wide live-migration limits and timeouts.")
    public LiveMigrationConfig liveMigrationConfig = new LiveMigrationConfig();

    @JsonPropertyDescription("What uninstalling does with existing workloads: BlockUninstallIfWorkloadsExist (default) "
            + "refuses while VMs or DataVolumes exist, RemoveWorkloads deletes them.")
    @Default("BlockUninstallIfWorkloadsExist")
    public UninstallStrategy uninstallStrategy = UninstallStrategy.BlockUninstallIfWorkloadsExist;
}
