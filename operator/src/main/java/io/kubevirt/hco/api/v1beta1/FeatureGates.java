package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Default;

/**
 * Upstream's v1beta1 feature gates, every one of them, so that a HyperConverged written for
 * upstream is accepted as it is. Those upstream itself ignores (deprecated) are accepted and
 * ignored here too; see the README's API coverage table for where each of the others goes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FeatureGates {

    @JsonPropertyDescription("Expose a limited set of host metrics to guests (KubeVirt DownwardMetrics).")
    @Default("false")
    public Boolean downwardMetrics = false;

    @JsonPropertyDescription("SCSI persistent reservation for shared LUNs (KubeVirt PersistentReservation).")
    @Default("false")
    public Boolean persistentReservation = false;

    @JsonPropertyDescription("Complete the CPU count to an even parity with emulator thread isolation (KubeVirt AlignCPUs).")
    @Default("false")
    public Boolean alignCPUs = false;

    @JsonPropertyDescription("Import boot images for every architecture of the cluster (SSP enableMultipleArchitectures).")
    @Default("false")
    public Boolean enableMultiArchBootImageImport = false;

    @JsonPropertyDescription("Deploy KubeSecondaryDNS with the network add-ons.")
    @Default("false")
    public Boolean deployKubeSecondaryDNS = false;

    @JsonPropertyDescription("Stop KubeVirt from handling mediated devices on the nodes.")
    @Default("false")
    public Boolean disableMDevConfiguration = false;

    @JsonPropertyDescription("Live migration between clusters (KubeVirt DecentralizedLiveMigration).")
    @Default("false")
    public Boolean decentralizedLiveMigration = false;

    @JsonPropertyDescription("Declarative volume hotplug (KubeVirt DeclarativeHotplugVolumes instead of HotplugVolumes).")
    @Default("false")
    public Boolean declarativeHotplugVolumes = false;

    @JsonPropertyDescription("Video device configuration of VMs (KubeVirt VideoConfig); on unless set to false.")
    public Boolean videoConfig;

    @JsonPropertyDescription("The ObjectGraph subresource of VMs and VMIs (KubeVirt ObjectGraph).")
    public Boolean objectGraph;

    @JsonPropertyDescription("Incremental backups (KubeVirt IncrementalBackup and UtilityVolumes).")
    public Boolean incrementalBackup;

    @JsonPropertyDescription("Deprecated upstream and ignored: there is no such feature gate in KubeVirt.")
    public Boolean withHostPassthroughCPU;

    @JsonPropertyDescription("Deprecated upstream and ignored: use spec.enableCommonBootImageImport.")
    public Boolean enableCommonBootImageImport;

    @JsonPropertyDescription("Deprecated upstream and ignored.")
    public Boolean deployTektonTaskResources;

    @JsonPropertyDescription("Deprecated upstream and ignored: use spec.deployVmConsoleProxy.")
    public Boolean deployVmConsoleProxy;

    @JsonPropertyDescription("Deprecated upstream and ignored.")
    public Boolean deployKubevirtIpamController;

    @JsonPropertyDescription("Deprecated upstream and ignored.")
    public Boolean nonRoot;

    @JsonPropertyDescription("Deprecated upstream and ignored.")
    public Boolean enableManagedTenantQuota;

    @JsonPropertyDescription("Deprecated upstream and ignored.")
    public Boolean autoResourceLimits;

    @JsonPropertyDescription("Deprecated upstream and ignored: use spec.enableApplicationAwareQuota.")
    public Boolean enableApplicationAwareQuota;

    @JsonPropertyDescription("Deprecated upstream and ignored.")
    public Boolean primaryUserDefinedNetworkBinding;
}
