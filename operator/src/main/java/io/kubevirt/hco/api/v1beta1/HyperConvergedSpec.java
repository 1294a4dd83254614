package io.kubevirt.hco.api.v1beta1;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Upstream HCO's v1beta1 spec, every top-level field with upstream's name, type and default, so a
 * HyperConverged written for upstream applies unchanged and nothing in it is pruned. Where a
 * field carries a component's own type (KubeVirt's KSM, instance type, live update and network
 * binding settings, CDI's DataImportCron spec) it is kept as the component defines it and copied
 * onto the component as is. Where each field goes, and which are accepted but not yet applied, is
 * the README's API coverage table ({@code components/ApiCoverage}).
 */
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

    @JsonPropertyDescription("Deprecated upstream: the name of the local storage class. Accepted and ignored.")
    public String localStorageClassName;

    @JsonPropertyDescription("KubeVirt's client rate limits: annotation (qps and burst from the hco.kubevirt.io/tuningPolicy "
            + "annotation) or highBurst; unset keeps KubeVirt's defaults.")
    public TuningPolicy tuningPolicy;

    @JsonPropertyDescription("Host devices VMs may be given (PCI, USB, mediated).")
    public PermittedHostDevices permittedHostDevices;

    @JsonPropertyDescription("Mediated device types to create on the nodes.")
    public MediatedDevicesConfiguration mediatedDevicesConfiguration;

    @JsonPropertyDescription("Resource requirements of the operands' workloads.")
    @ValidationRule(value = "!has(self.vmiCPUAllocationRatio) || self.vmiCPUAllocationRatio > 0",
            message = "vmiCPUAllocationRatio must be greater than 0")
    public OperandResourceRequirements resourceRequirements = new OperandResourceRequirements();

    @JsonPropertyDescription("Storage class for CDI's scratch space.")
    public String scratchSpaceStorageClass;

    @JsonPropertyDescription("Deprecated upstream (use the Migration Toolkit for Virtualization): VDDK init image. "
            + "Accepted, not applied.")
    public String vddkInitImage;

    @JsonPropertyDescription("CPU model of VMIs that set none (KubeVirt cpuModel).")
    public String defaultCPUModel;

    @JsonPropertyDescription("RuntimeClass of VMI pods that set none (KubeVirt defaultRuntimeClass).")
    public String defaultRuntimeClass;

    @JsonPropertyDescription("CPU models VMs must not be scheduled for, and the minimum CPU model.")
    public ObsoleteCpus obsoleteCPUs;

    @JsonPropertyDescription("Namespace of SSP's common templates (default: openshift).")
    public String commonTemplatesNamespace;

    @JsonPropertyDescription("Settings of CDI's image imports.")
    public StorageImportConfig storageImport;

    @JsonPropertyDescription("How VMs move to a new KubeVirt after an upgrade (KubeVirt workloadUpdateStrategy).")
    public WorkloadUpdateStrategy workloadUpdateStrategy = new WorkloadUpdateStrategy();

    @JsonPropertyDescription("Custom golden images: DataImportCron templates (metadata and CDI DataImportCronSpec) given to SSP.")
    public List<DataImportCronTemplate> dataImportCronTemplates;

    @JsonPropertyDescription("Space CDI reserves on Filesystem volumes (global and per storage class).")
    public FilesystemOverhead filesystemOverhead;

    @JsonPropertyDescription("Log verbosity of KubeVirt's and CDI's components.")
    public LogVerbosityConfig logVerbosityConfig;

    @JsonPropertyDescription("TLS settings of the stack's components; unset means Intermediate.")
    public TlsSecurityProfile tlsSecurityProfile;

    @JsonPropertyDescription("Deprecated upstream and ignored.")
    public String tektonPipelinesNamespace;

    @JsonPropertyDescription("Deprecated upstream and ignored.")
    public String tektonTasksNamespace;

    @JsonPropertyDescription("IPv4 address of KubeSecondaryDNS's name server (with featureGates.deployKubeSecondaryDNS).")
    @Pattern("^$|^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$")
    public String kubeSecondaryDNSNameServerIP;

    @JsonPropertyDescription("What a node drain does to VMs: None, LiveMigrate, LiveMigrateIfPossible or External. "
            + "Unset: LiveMigrate with more than one worker node, None with one.")
    public EvictionStrategy evictionStrategy;

    @JsonPropertyDescription("Storage class of the PVCs that keep VM state such as the TPM.")
    public String vmStateStorageClass;

    @JsonPropertyDescription("Cluster-level VM options.")
    public VirtualMachineOptions virtualMachineOptions = new VirtualMachineOptions();

    @JsonPropertyDescription("Namespace of the common boot images. Accepted, not yet applied (no common golden images are shipped).")
    public String commonBootImageNamespace;

    @JsonPropertyDescription("KubeVirt's KSMConfiguration, copied as is.")
    @PreserveUnknownFields
    public JsonNode ksmConfiguration;

    @JsonPropertyDescription("KubeVirt network binding plugins by name (InterfaceBindingPlugin), copied as is.")
    public Map<String, JsonNode> networkBinding;

    @JsonPropertyDescription("Application Aware Quota settings. Accepted, not yet applied (AAQ is not deployed).")
    public ApplicationAwareConfig applicationAwareConfig;

    @JsonPropertyDescription("Settings that raise VM density.")
    public HigherWorkloadDensity higherWorkloadDensity = new HigherWorkloadDensity();

    @JsonPropertyDescription("Automatic delivery of the common golden images. Accepted, not yet applied.")
    @Default("true")
    public Boolean enableCommonBootImageImport = true;

    @JsonPropertyDescription("KubeVirt's InstancetypeConfiguration, copied as is.")
    @PreserveUnknownFields
    public JsonNode instancetypeConfig;

    @JsonPropertyDescription("KubeVirt's CommonInstancetypesDeployment, copied as is.")
    @JsonProperty("CommonInstancetypesDeployment")
    @PreserveUnknownFields
    public JsonNode commonInstancetypesDeployment;

    @JsonPropertyDescription("Deploy the VM console proxy (SSP tokenGenerationService).")
    @Default("false")
    public Boolean deployVmConsoleProxy = false;

    @JsonPropertyDescription("Application Aware Quota. Accepted, not yet applied (AAQ is not deployed).")
    @Default("false")
    public Boolean enableApplicationAwareQuota = false;

    @JsonPropertyDescription("KubeVirt's LiveUpdateConfiguration (max sockets, guest memory, hotplug ratio), copied as is.")
    @PreserveUnknownFields
    public JsonNode liveUpdateConfiguration;
}
