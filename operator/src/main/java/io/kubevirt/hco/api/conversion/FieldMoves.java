package io.kubevirt.hco.api.conversion;

import java.util.List;

/**
 * Where each v1beta1 spec field lives in v1, as upstream's v1 types place it. Order matters: a
 * field moved into an object that is itself moved (defaultCPUModel into virtualMachineOptions)
 * comes after that object; converting back runs the table from the end.
 */
final class FieldMoves {

    /** {@code negated}: a boolean whose meaning flips between the versions (disable... in v1beta1, enabled in v1). */
    record Move(String v1beta1, String v1, boolean negated) {
        Move(String v1beta1, String v1) {
            this(v1beta1, v1, false);
        }
    }

    static final List<Move> TABLE = List.of(
            new Move("tuningPolicy", "virtualization.tuningPolicy"),
            new Move("liveMigrationConfig", "virtualization.liveMigrationConfig"),
            new Move("permittedHostDevices", "virtualization.permittedHostDevices"),
            new Move("mediatedDevicesConfiguration", "virtualization.mediatedDevicesConfiguration"),
            new Move("workloadUpdateStrategy", "virtualization.workloadUpdateStrategy"),
            new Move("obsoleteCPUs.cpuModels", "virtualization.obsoleteCPUModels"),
            new Move("evictionStrategy", "virtualization.evictionStrategy"),
            new Move("virtualMachineOptions", "virtualization.virtualMachineOptions"),
            new Move("defaultCPUModel", "virtualization.virtualMachineOptions.defaultCPUModel"),
            new Move("defaultRuntimeClass", "virtualization.virtualMachineOptions.defaultRuntimeClass"),
            new Move("higherWorkloadDensity", "virtualization.higherWorkloadDensity"),
            new Move("liveUpdateConfiguration", "virtualization.liveUpdateConfiguration"),
            new Move("ksmConfiguration", "virtualization.ksmConfiguration"),
            new Move("resourceRequirements.vmiCPUAllocationRatio", "virtualization.vmiCPUAllocationRatio"),
            new Move("resourceRequirements.autoCPULimitNamespaceLabelSelector",
                    "virtualization.autoCPULimitNamespaceLabelSelector"),
            new Move("resourceRequirements.storageWorkloads", "storage.workloadResourceRequirements"),
            new Move("vmStateStorageClass", "storage.vmStateStorageClass"),
            new Move("scratchSpaceStorageClass", "storage.scratchSpaceStorageClass"),
            new Move("storageImport", "storage.storageImport"),
            new Move("filesystemOverhead", "storage.filesystemOverhead"),
            new Move("featureGates.persistentReservation", "storage.persistentReservationConfiguration.enabled"),
            new Move("featureGates.disableMDevConfiguration", "virtualization.mediatedDevicesConfiguration.enabled", true),
            new Move("kubeSecondaryDNSNameServerIP", "networking.kubeSecondaryDNSNameServerIP"),
            new Move("networkBinding", "networking.networkBinding"),
            new Move("commonTemplatesNamespace", "workloadSources.commonTemplatesNamespace"),
            new Move("commonBootImageNamespace", "workloadSources.commonBootImageNamespace"),
            new Move("enableCommonBootImageImport", "workloadSources.enableCommonBootImageImport"),
            new Move("dataImportCronTemplates", "workloadSources.dataImportCronTemplates"),
            new Move("instancetypeConfig", "workloadSources.instancetypeConfig"),
            new Move("CommonInstancetypesDeployment", "workloadSources.commonInstancetypesDeployment"),
            new Move("certConfig", "security.certConfig"),
            new Move("tlsSecurityProfile", "security.tlsSecurityProfile"),
            new Move("infra.nodePlacement", "deployment.nodePlacements.infra"),
            new Move("workloads.nodePlacement", "deployment.nodePlacements.workload"),
            new Move("uninstallStrategy", "deployment.uninstallStrategy"),
            new Move("logVerbosityConfig", "deployment.logVerbosityConfig"),
            new Move("applicationAwareConfig", "deployment.applicationAwareConfig"),
            new Move("enableApplicationAwareQuota", "deployment.applicationAwareConfig.enable"),
            new Move("deployVmConsoleProxy", "deployment.deployVmConsoleProxy"));

    private FieldMoves() {
    }
}
