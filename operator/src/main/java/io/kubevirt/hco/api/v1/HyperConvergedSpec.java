package io.kubevirt.hco.api.v1;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Default;

/** Upstream's v1 spec: the v1beta1 settings grouped by concern (see the conversion table for where each went). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class HyperConvergedSpec {

    @JsonPropertyDescription("Optional features: a list of {name, enabled}; enabled is True unless set to False.")
    public List<FeatureGate> featureGates;

    @JsonPropertyDescription("Virtualization settings (KubeVirt).")
    @Default("{\"liveMigrationConfig\": {\"completionTimeoutPerGiB\": 20, \"parallelMigrationsPerCluster\": 5, "
            + "\"parallelOutboundMigrationsPerNode\": 1, \"progressTimeout\": 150, \"allowAutoConverge\": false, "
            + "\"allowPostCopy\": false}, \"virtualMachineOptions\": {\"disableFreePageReporting\": false, "
            + "\"disableSerialConsoleLog\": false}, \"vmiCPUAllocationRatio\": 10}")
    public Virtualization virtualization;

    @JsonPropertyDescription("Storage settings (CDI, VM state).")
    public Storage storage;

    @JsonPropertyDescription("Networking settings (network add-ons, binding plugins).")
    public Networking networking;

    @JsonPropertyDescription("Workload sources: common templates, golden images, instance types.")
    public WorkloadSources workloadSources;

    @JsonPropertyDescription("Certificates and TLS.")
    @Default("{\"certConfig\": {\"ca\": {\"duration\": \"48h0m0s\", \"renewBefore\": \"24h0m0s\"}, "
            + "\"server\": {\"duration\": \"24h0m0s\", \"renewBefore\": \"12h0m0s\"}}}")
    public Security security;

    @JsonPropertyDescription("Where and how the stack's components are deployed.")
    @Default("{\"uninstallStrategy\": \"BlockUninstallIfWorkloadsExist\", \"deployVmConsoleProxy\": false, "
            + "\"applicationAwareConfig\": {\"enable\": false}}")
    public Deployment deployment;
}
