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


    /** Every top-level field of upstream's v1beta1 spec, with values of upstream's types. */
    static final String EVERY_FIELD = """
            localStorageClassName: local
            tuningPolicy: highBurst
            infra:
              nodePlacement:
                nodeSelector: {node-role.kubernetes.io/infra: ""}
                tolerations: [{key: infra, operator: Exists, effect: NoSchedule}]
            workloads:
              nodePlacement:
                affinity:
                  nodeAffinity:
                    requiredDuringSchedulingIgnoredDuringExecution:
                      nodeSelectorTerms: [{matchExpressions: [{key: vms, operator: In, values: ["yes"]}]}]
            featureGates:
              downwardMetrics: true
              deployKubeSecondaryDNS: true
              disableMDevConfiguration: false
              persistentReservation: true
              enableMultiArchBootImageImport: false
              decentralizedLiveMigration: true
              declarativeHotplugVolumes: true
              videoConfig: true
              alignCPUs: false
              withHostPassthroughCPU: false
              nonRoot: true
            liveMigrationConfig:
              parallelMigrationsPerCluster: 10
              parallelOutboundMigrationsPerNode: 4
              bandwidthPerMigration: 2048Mi
              completionTimeoutPerGiB: 800
              progressTimeout: 300
              network: migration-net
              allowAutoConverge: true
              allowPostCopy: true
            permittedHostDevices:
              pciHostDevices:
              - {pciDeviceSelector: "10DE:1EB8", resourceName: nvidia.com/TU104GL_Tesla_T4, externalResourceProvider: true}
              usbHostDevices:
              - resourceName: kubevirt.io/peripherals
                selectors: [{vendor: "045e", product: "07a5"}]
              mediatedDevices:
              - {mdevNameSelector: GRID T4-1Q, resourceName: nvidia.com/GRID_T4-1Q, disabled: true}
            mediatedDevicesConfiguration:
              mediatedDeviceTypes: [nvidia-222]
              nodeMediatedDeviceTypes:
              - nodeSelector: {gpu: a}
                mediatedDeviceTypes: [nvidia-223]
            certConfig:
              ca: {duration: 48h0m0s, renewBefore: 24h0m0s}
              server: {duration: 24h0m0s, renewBefore: 12h0m0s}
            resourceRequirements:
              storageWorkloads:
                limits: {cpu: 500m, memory: 2Gi}
                requests: {cpu: 250m, memory: 1Gi}
              vmiCPUAllocationRatio: 8
              autoCPULimitNamespaceLabelSelector:
                matchLabels: {cpu-limits: enabled}
            scratchSpaceStorageClass: fast
            vddkInitImage: quay.io/example/vddk:8
            defaultCPUModel: Haswell
            defaultRuntimeClass: kata
            obsoleteCPUs:
              minCPUModel: Penryn
              cpuModels: [Nehalem, Westmere]
            commonTemplatesNamespace: templates
            storageImport:
              insecureRegistries: ["registry.local:5000"]
            workloadUpdateStrategy:
              workloadUpdateMethods: [LiveMigrate, Evict]
              batchEvictionSize: 5
              batchEvictionInterval: 2m0s
            dataImportCronTemplates:
            - metadata:
                name: centos-stream9-image-cron
                annotations: {cdi.kubevirt.io/storage.bind.immediate.requested: "true"}
              spec:
                schedule: "0 */12 * * *"
                template:
                  spec:
                    source:
                      registry: {url: "docker://quay.io/containerdisks/centos-stream:9"}
                    storage:
                      resources:
                        requests: {storage: 30Gi}
                garbageCollect: Outdated
                managedDataSource: centos-stream9
            filesystemOverhead:
              global: "0.08"
              storageClass: {nfs: "0.1"}
            uninstallStrategy: RemoveWorkloads
            logVerbosityConfig:
              kubevirt: {virtLauncher: 8, virtHandler: 4, nodeVerbosity: {node01: 4}}
              cdi: 3
            tlsSecurityProfile:
              type: Custom
              custom:
                ciphers: [ECDHE-RSA-AES128-GCM-SHA256]
                minTLSVersion: VersionTLS12
            tektonPipelinesNamespace: pipelines
            tektonTasksNamespace: tasks
            kubeSecondaryDNSNameServerIP: 10.0.0.5
            evictionStrategy: LiveMigrateIfPossible
            vmStateStorageClass: tpm-state
            virtualMachineOptions: {disableFreePageReporting: true, disableSerialConsoleLog: false}
            commonBootImageNamespace: golden-images
            ksmConfiguration:
              nodeLabelSelector: {matchLabels: {ksm: enabled}}
            networkBinding:
              passt:
                sidecarImage: quay.io/kubevirt/network-passt-binding:v1.5.0
                networkAttachmentDefinition: default/netbindingpasst
            applicationAwareConfig:
              vmiCalcConfigName: VirtualResources
              namespaceSelector: {matchLabels: {aaq: enabled}}
              allowApplicationAwareClusterResourceQuota: true
            higherWorkloadDensity: {memoryOvercommitPercentage: 150}
            enableCommonBootImageImport: false
            instancetypeConfig:
              referencePolicy: expand
            CommonInstancetypesDeployment: {enabled: false}
            deployVmConsoleProxy: true
            enableApplicationAwareQuota: true
            liveUpdateConfiguration:
              maxCpuSockets: 8
              maxGuest: 64Gi
              maxHotplugRatio: 4
            """;

    private UpstreamApi() {
    }
}
