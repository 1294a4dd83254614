package io.kubevirt.hco.components;

import java.util.List;

/**
 * Facts about upstream HCO's v1beta1 API, read from kubevirt/hyperconverged-cluster-operator's
 * api/v1beta1/hyperconverged_types.go and deploy/hco.cr.yaml (not copied: the names are the API).
 */
final class UpstreamApi {

    /** The top-level fields of upstream's HyperConvergedSpec (json names). */
    static final List<String> V1BETA1_SPEC_FIELDS = List.of("localStorageClassName", "tuningPolicy", "infra", "workloads",
            "featureGates", "liveMigrationConfig", "permittedHostDevices", "mediatedDevicesConfiguration", "certConfig",
            "resourceRequirements", "scratchSpaceStorageClass", "vddkInitImage", "defaultCPUModel", "defaultRuntimeClass",
            "obsoleteCPUs", "commonTemplatesNamespace", "storageImport", "workloadUpdateStrategy", "dataImportCronTemplates",
            "filesystemOverhead", "uninstallStrategy", "logVerbosityConfig", "tlsSecurityProfile", "tektonPipelinesNamespace",
            "tektonTasksNamespace", "kubeSecondaryDNSNameServerIP", "evictionStrategy", "vmStateStorageClass",
            "virtualMachineOptions", "commonBootImageNamespace", "ksmConfiguration", "networkBinding",
            "applicationAwareConfig", "higherWorkloadDensity", "enableCommonBootImageImport", "instancetypeConfig",
            "CommonInstancetypesDeployment", "deployVmConsoleProxy", "enableApplicationAwareQuota", "liveUpdateConfiguration");

    /** Upstream's sample HyperConverged, deploy/hco.cr.yaml, as upstream ships it. */
    static final String SAMPLE = """
            apiVersion: hco.kubevirt.io/v1beta1
            kind: HyperConverged
            metadata:
              name: kubevirt-hyperconverged
            spec:
              certConfig:
                ca:
                  duration: 48h0m0s
                  renewBefore: 24h0m0s
                server:
                  duration: 24h0m0s
                  renewBefore: 12h0m0s
              deployVmConsoleProxy: false
              enableApplicationAwareQuota: false
              enableCommonBootImageImport: true
              featureGates:
                alignCPUs: false
                decentralizedLiveMigration: false
                deployKubeSecondaryDNS: false
                disableMDevConfiguration: false
                downwardMetrics: false
                enableMultiArchBootImageImport: false
                persistentReservation: false
                videoConfig: false
              higherWorkloadDensity:
                memoryOvercommitPercentage: 100
              infra: {}
              liveMigrationConfig:
                allowAutoConverge: false
                allowPostCopy: false
                completionTimeoutPerGiB: 150
                parallelMigrationsPerCluster: 5
                parallelOutboundMigrationsPerNode: 2
                progressTimeout: 150
              uninstallStrategy: BlockUninstallIfWorkloadsExist
              virtualMachineOptions:
                disableFreePageReporting: false
                disableSerialConsoleLog: false
              workloadUpdateStrategy:
                batchEvictionInterval: 1m0s
                batchEvictionSize: 10
                workloadUpdateMethods:
                - LiveMigrate
              workloads: {}
            """;

    private UpstreamApi() {
    }
}
