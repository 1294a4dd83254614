package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.StatusCondition;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.OwnedFields;

/**
 * Upstream's HyperConverged API on a real API server, with the CRD this project generates: upstream's
 * own sample and a spec setting every upstream v1beta1 field are accepted and kept field for field
 * (nothing pruned), the singleton name is enforced by the API server, upstream's names are served;
 * and the operator's escape hatch and not-applied report, end to end.
 */
class UpstreamApiIT extends E2eScenario {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

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

    Resource<GenericKubernetesResource> hco(String name) {
        return admin.genericKubernetesResources(HyperConverged.GROUP + "/" + HyperConverged.VERSION, "HyperConverged")
                .inNamespace(NS).withName(name);
    }

    GenericKubernetesResource create(String yaml) throws Exception {
        GenericKubernetesResource r = YAML.readValue(yaml, GenericKubernetesResource.class);
        r.getMetadata().setNamespace(NS);
        return admin.genericKubernetesResources(HyperConverged.GROUP + "/" + HyperConverged.VERSION, "HyperConverged")
                .inNamespace(NS).resource(r).create();
    }

    static String samples() {
        return io.kubevirt.hco.components.FieldMappingTest.upstreamSample();
    }

    @Test
    void upstreamsSampleAndEveryUpstreamFieldAreAcceptedAndKept() throws Exception {
        ClusterSetup.createNamespace(admin, NS);
        String sample = samples();
        create(sample);
        Object sampleSpec = YAML.readValue(sample, Map.class).get("spec");
        Object stored = hco(HyperConverged.SINGLETON_NAME).get().getAdditionalProperties().get("spec");
        assertThat(OwnedFields.firstDifference(sampleSpec, stored)).as("upstream's sample, stored: " + stored).isNull();
        hco(HyperConverged.SINGLETON_NAME).delete();
        within(30).until(() -> hco(HyperConverged.SINGLETON_NAME).get() == null);

        String every = "apiVersion: hco.kubevirt.io/v1beta1\nkind: HyperConverged\nmetadata:\n  name: kubevirt-hyperconverged\n"
                + "spec:\n" + EVERY_FIELD.indent(2);
        create(every);
        @SuppressWarnings("unchecked")
        Map<String, Object> given = (Map<String, Object>) YAML.readValue(every, Map.class).get("spec");
        Object kept = hco(HyperConverged.SINGLETON_NAME).get().getAdditionalProperties().get("spec");
        assertThat(given.keySet()).as("the test sets every upstream field")
                .containsAll(io.kubevirt.hco.components.FieldMappingTest.upstreamFields());
        assertThat(OwnedFields.firstDifference(given, kept)).as("every field kept as written: " + kept).isNull();
    }

    @Test
    void theApiServerEnforcesTheSingletonNameAndServesUpstreamsNames() throws Exception {
        ClusterSetup.createNamespace(admin, NS);
        assertThatThrownBy(() -> create(samples().replace("name: kubevirt-hyperconverged", "name: second")))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("the HyperConverged is a singleton named kubevirt-hyperconverged");
        APIResource resource = admin.getApiResources(HyperConverged.GROUP + "/" + HyperConverged.VERSION).getResources()
                .stream().filter(r -> r.getName().equals("hyperconvergeds")).findFirst().orElseThrow();
        assertThat(resource.getShortNames()).containsExactly("hco", "hcos");
        assertThat(resource.getCategories()).containsExactly("all");
    }

    @Test
    void jsonPatchesAreAppliedReportedAndRefusedWhenTheyTouchTheGate() throws Exception {
        OperatorProcess op = installedAndUpgradeable("1.0.0");
        editHyperConverged(h -> annotate(h, "kubevirt.kubevirt.io/jsonpatch",
                "[{\"op\":\"add\",\"path\":\"/spec/configuration/cpuModel\",\"value\":\"Skylake-Server\"}]"));
        within(60).until(() -> condition("TaintedConfiguration") != null
                && "Skylake-Server".equals(kubevirtConfiguration().get("cpuModel")));
        assertThat(condition("TaintedConfiguration").reason).isEqualTo("UnsupportedFeatureAnnotation");
        assertThat(op.metrics()).contains(
                "kubevirt_hco_unsafe_modifications{annotation_name=\"kubevirt.kubevirt.io/jsonpatch\"} 1.0");
        within(60).until(() -> "True".equals(olm.last("1.0.0").split("/")[0]));

        // beyond upstream: a patch on what decides KubeVirt's version is refused, the CR kept, the gate closed
        editHyperConverged(h -> annotate(h, "kubevirt.kubevirt.io/jsonpatch",
                "[{\"op\":\"add\",\"path\":\"/spec/imageTag\",\"value\":\"v9.9.9\"}]"));
        within(60).until(() -> condition("ReconcileComplete") != null && "False".equals(condition("ReconcileComplete").status));
        assertThat(condition("ReconcileComplete").message).contains("/spec/imageTag", "upgrade gate depends on it");
        within(60).until(() -> olm.last("1.0.0").startsWith("False/"));
        assertThat(cluster.component(ComponentCatalog.KUBEVIRT).getAdditionalProperties().get("spec").toString())
                .doesNotContain("v9.9.9");

        // an upstream field this operator does not apply is said so; removing the patch reopens
        editHyperConverged(h -> {
            h.getMetadata().getAnnotations().remove("kubevirt.kubevirt.io/jsonpatch");
            h.getSpec().vddkInitImage = "quay.io/example/vddk:8";
        });
        within(60).until(() -> condition("UnappliedFields") != null && condition("TaintedConfiguration") == null);
        assertThat(condition("UnappliedFields").message).contains("vddkInitImage");
        within(60).until(() -> olm.saw("1.0.0", "True") && olm.last("1.0.0").startsWith("True"));
        assertThat(op.metrics()).contains(
                "kubevirt_hco_unsafe_modifications{annotation_name=\"kubevirt.kubevirt.io/jsonpatch\"} 0.0");
    }

    private static void annotate(HyperConverged h, String key, String value) {
        Map<String, String> annotations = new java.util.LinkedHashMap<>(
                h.getMetadata().getAnnotations() == null ? Map.of() : h.getMetadata().getAnnotations());
        annotations.put(key, value);
        h.getMetadata().setAnnotations(annotations);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> kubevirtConfiguration() {
        var kv = cluster.component(ComponentCatalog.KUBEVIRT);
        Map<String, Object> spec = (Map<String, Object>) kv.getAdditionalProperties().get("spec");
        return (Map<String, Object>) spec.getOrDefault("configuration", Map.of());
    }

    private StatusCondition condition(String type) {
        return cluster.hcoCondition(HyperConverged.SINGLETON_NAME, type);
    }
}
