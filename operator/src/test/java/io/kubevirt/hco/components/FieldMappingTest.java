package io.kubevirt.hco.components;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;

/**
 * One row per upstream v1beta1 field (and per always-on default): a HyperConverged spec fragment,
 * the component and the place in its spec, and the value upstream's handlers would write there.
 * The same table is docs/api.md's API coverage table (kept equal by {@link #theApiDocsTableIsThisTable};
 * rewrite it with {@code -Dhco.readme.update=true}); every top-level field of the spec is either
 * mapped here or listed in {@link UnappliedFields}.
 */
public class FieldMappingTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Path API_DOC = Path.of("..", "docs", "api.md");
    static final String START = "<!-- api-coverage:start -->";
    static final String END = "<!-- api-coverage:end -->";

    record Row(String field, String given, String component, String pointer, String expected) {
        @Override
        public String toString() {
            return field + " -> " + component + " " + pointer;
        }
    }

    static final List<Row> ROWS = List.of(
            new Row("featureGates.downwardMetrics", "{'featureGates':{'downwardMetrics':true}}", "KubeVirt",
                    "/configuration/developerConfiguration/featureGates", "['CPUManager','Snapshot','ExpandDisks','HostDevices','VMExport','KubevirtSeccompProfile','WithHostModelCPU','HypervStrictCheck','DownwardMetrics','VideoConfig','HotplugVolumes']"),
            new Row("featureGates.persistentReservation", "{'featureGates':{'persistentReservation':true}}", "KubeVirt",
                    "/configuration/developerConfiguration/featureGates/8", "'PersistentReservation'"),
            new Row("featureGates.alignCPUs", "{'featureGates':{'alignCPUs':true}}", "KubeVirt",
                    "/configuration/developerConfiguration/featureGates/8", "'AlignCPUs'"),
            new Row("featureGates.videoConfig", "{'featureGates':{'videoConfig':false}}", "KubeVirt",
                    "/configuration/developerConfiguration/featureGates/8", "'HotplugVolumes'"),
            new Row("featureGates.objectGraph", "{'featureGates':{'objectGraph':true}}", "KubeVirt",
                    "/configuration/developerConfiguration/featureGates/9", "'ObjectGraph'"),
            new Row("featureGates.decentralizedLiveMigration", "{'featureGates':{'decentralizedLiveMigration':true}}", "KubeVirt",
                    "/configuration/developerConfiguration/featureGates/9", "'DecentralizedLiveMigration'"),
            new Row("featureGates.declarativeHotplugVolumes", "{'featureGates':{'declarativeHotplugVolumes':true}}", "KubeVirt",
                    "/configuration/developerConfiguration/featureGates/9", "'DeclarativeHotplugVolumes'"),
            new Row("featureGates.incrementalBackup", "{'featureGates':{'incrementalBackup':true}}", "KubeVirt",
                    "/configuration/developerConfiguration/featureGates/10", "'IncrementalBackup'"),
            new Row("featureGates.disableMDevConfiguration", "{'featureGates':{'disableMDevConfiguration':true}}", "KubeVirt",
                    "/configuration/mediatedDevicesConfiguration", "{'enabled':false}"),
            new Row("featureGates.deployKubeSecondaryDNS", "{'featureGates':{'deployKubeSecondaryDNS':true},'kubeSecondaryDNSNameServerIP':'10.0.0.5'}",
                    "NetworkAddonsConfig", "/kubeSecondaryDNS", "{'nameServerIP':'10.0.0.5'}"),
            new Row("featureGates.enableMultiArchBootImageImport", "{'featureGates':{'enableMultiArchBootImageImport':true}}", "SSP",
                    "/enableMultipleArchitectures", "true"),
            new Row("infra.nodePlacement", "{'infra':{'nodePlacement':{'nodeSelector':{'infra':'yes'}}}}", "KubeVirt",
                    "/infra/nodePlacement", "{'nodeSelector':{'infra':'yes'}}"),
            new Row("infra.nodePlacement", "{'infra':{'nodePlacement':{'nodeSelector':{'infra':'yes'}}}}", "CDI",
                    "/infra", "{'nodeSelector':{'infra':'yes'}}"),
            new Row("infra.nodePlacement", "{'infra':{'nodePlacement':{'nodeSelector':{'infra':'yes'}}}}", "NetworkAddonsConfig",
                    "/placementConfiguration/infra", "{'nodeSelector':{'infra':'yes'}}"),
            new Row("infra.nodePlacement", "{'infra':{'nodePlacement':{'nodeSelector':{'infra':'yes'}}}}", "SSP",
                    "/templateValidator/placement", "{'nodeSelector':{'infra':'yes'}}"),
            new Row("workloads.nodePlacement", "{'workloads':{'nodePlacement':{'nodeSelector':{'vms':'yes'}}}}", "KubeVirt",
                    "/workloads/nodePlacement", "{'nodeSelector':{'vms':'yes'}}"),
            new Row("workloads.nodePlacement", "{'workloads':{'nodePlacement':{'nodeSelector':{'vms':'yes'}}}}", "CDI",
                    "/workload", "{'nodeSelector':{'vms':'yes'}}"),
            new Row("workloads.nodePlacement", "{'workloads':{'nodePlacement':{'nodeSelector':{'vms':'yes'}}}}", "NetworkAddonsConfig",
                    "/placementConfiguration/workloads", "{'nodeSelector':{'vms':'yes'}}"),
            new Row("certConfig", "{'certConfig':{'ca':{'duration':'96h0m0s','renewBefore':'48h0m0s'},'server':{'duration':'24h0m0s','renewBefore':'12h0m0s'}}}",
                    "KubeVirt", "/certificateRotateStrategy/selfSigned/ca", "{'duration':'96h0m0s','renewBefore':'48h0m0s'}"),
            new Row("certConfig", "{'certConfig':{'ca':{'duration':'96h0m0s','renewBefore':'48h0m0s'},'server':{'duration':'24h0m0s','renewBefore':'12h0m0s'}}}",
                    "CDI", "/certConfig/ca", "{'duration':'96h0m0s','renewBefore':'48h0m0s'}"),
            new Row("certConfig", "{'certConfig':{'ca':{'duration':'96h0m0s','renewBefore':'48h0m0s'},'server':{'duration':'24h0m0s','renewBefore':'12h0m0s'}}}",
                    "NetworkAddonsConfig", "/selfSignConfiguration", "{'caRotateInterval':'96h0m0s','caOverlapInterval':'48h0m0s','certRotateInterval':'24h0m0s','certOverlapInterval':'12h0m0s'}"),
            new Row("liveMigrationConfig", "{'liveMigrationConfig':{'bandwidthPerMigration':'64Mi','network':'migration-net','allowAutoConverge':true}}",
                    "KubeVirt", "/configuration/migrations", "{'bandwidthPerMigration':'64Mi','completionTimeoutPerGiB':150,'parallelOutboundMigrationsPerNode':2,'parallelMigrationsPerCluster':5,'progressTimeout':150,'network':'migration-net','allowAutoConverge':true,'allowPostCopy':false}"),
            new Row("uninstallStrategy", "{'uninstallStrategy':'RemoveWorkloads'}", "KubeVirt", "/uninstallStrategy", "''"),
            new Row("uninstallStrategy", "{'uninstallStrategy':'RemoveWorkloads'}", "CDI", "/uninstallStrategy", "'RemoveWorkloads'"),
            new Row("tuningPolicy", "{'tuningPolicy':'highBurst'}", "KubeVirt", "/configuration/apiConfiguration",
                    "{'restClient':{'rateLimiter':{'tokenBucketRateLimiter':{'qps':200,'burst':400}}}}"),
            new Row("permittedHostDevices", "{'permittedHostDevices':{'pciHostDevices':[{'pciDeviceSelector':'10DE:1EB8','resourceName':'nvidia.com/TU104GL_Tesla_T4'},{'pciDeviceSelector':'8086:6F54','resourceName':'intel.com/qat','disabled':true}]}}",
                    "KubeVirt", "/configuration/permittedHostDevices", "{'pciHostDevices':[{'pciVendorSelector':'10DE:1EB8','resourceName':'nvidia.com/TU104GL_Tesla_T4'}]}"),
            new Row("mediatedDevicesConfiguration", "{'mediatedDevicesConfiguration':{'mediatedDevicesTypes':['nvidia-222'],'nodeMediatedDeviceTypes':[{'nodeSelector':{'gpu':'a'},'mediatedDeviceTypes':['nvidia-223']}]}}",
                    "KubeVirt", "/configuration/mediatedDevicesConfiguration", "{'mediatedDeviceTypes':['nvidia-222'],'nodeMediatedDeviceTypes':[{'nodeSelector':{'gpu':'a'},'mediatedDeviceTypes':['nvidia-223']}]}"),
            new Row("resourceRequirements.storageWorkloads", "{'resourceRequirements':{'storageWorkloads':{'limits':{'cpu':'500m'}}}}",
                    "CDI", "/config/podResourceRequirements", "{'limits':{'cpu':'500m'}}"),
            new Row("resourceRequirements.vmiCPUAllocationRatio", "{'resourceRequirements':{'vmiCPUAllocationRatio':4}}",
                    "KubeVirt", "/configuration/developerConfiguration/cpuAllocationRatio", "4"),
            new Row("resourceRequirements.autoCPULimitNamespaceLabelSelector", "{'resourceRequirements':{'autoCPULimitNamespaceLabelSelector':{'matchLabels':{'cpu-limits':'on'}}}}",
                    "KubeVirt", "/configuration/autoCPULimitNamespaceLabelSelector", "{'matchLabels':{'cpu-limits':'on'}}"),
            new Row("scratchSpaceStorageClass", "{'scratchSpaceStorageClass':'fast'}", "CDI", "/config/scratchSpaceStorageClass", "'fast'"),
            new Row("defaultCPUModel", "{'defaultCPUModel':'Haswell'}", "KubeVirt", "/configuration/cpuModel", "'Haswell'"),
            new Row("defaultRuntimeClass", "{'defaultRuntimeClass':'kata'}", "KubeVirt", "/configuration/defaultRuntimeClass", "'kata'"),
            new Row("obsoleteCPUs.cpuModels", "{'obsoleteCPUs':{'cpuModels':['Nehalem']}}", "KubeVirt", "/configuration/obsoleteCPUModels/Nehalem", "true"),
            new Row("obsoleteCPUs.minCPUModel", "{'obsoleteCPUs':{'minCPUModel':'Penryn'}}", "KubeVirt", "/configuration/minCPUModel", "'Penryn'"),
            new Row("commonTemplatesNamespace", "{'commonTemplatesNamespace':'templates'}", "SSP", "/commonTemplates/namespace", "'templates'"),
            new Row("storageImport.insecureRegistries", "{'storageImport':{'insecureRegistries':['registry.local:5000']}}", "CDI",
                    "/config/insecureRegistries", "['registry.local:5000']"),
            new Row("workloadUpdateStrategy", "{'workloadUpdateStrategy':{'workloadUpdateMethods':['LiveMigrate','Evict'],'batchEvictionSize':5,'batchEvictionInterval':'2m0s'}}",
                    "KubeVirt", "/workloadUpdateStrategy", "{'workloadUpdateMethods':['LiveMigrate','Evict'],'batchEvictionSize':5,'batchEvictionInterval':'2m0s'}"),
            new Row("dataImportCronTemplates", "{'dataImportCronTemplates':[{'metadata':{'name':'my-image'},'spec':{'schedule':'0 */12 * * *','managedDataSource':'my-image','template':{'spec':{'source':{'registry':{'url':'docker://quay.io/containerdisks/fedora:latest'}}}}}}]}",
                    "SSP", "/commonTemplates/dataImportCronTemplates", "[{'metadata':{'name':'my-image'},'spec':{'schedule':'0 */12 * * *','managedDataSource':'my-image','template':{'spec':{'source':{'registry':{'url':'docker://quay.io/containerdisks/fedora:latest'}}}}}}]"),
            new Row("filesystemOverhead", "{'filesystemOverhead':{'global':'0.08','storageClass':{'nfs':'0.1'}}}", "CDI",
                    "/config/filesystemOverhead", "{'global':'0.08','storageClass':{'nfs':'0.1'}}"),
            new Row("logVerbosityConfig.kubevirt", "{'logVerbosityConfig':{'kubevirt':{'virtLauncher':8}}}", "KubeVirt",
                    "/configuration/developerConfiguration/logVerbosity", "{'virtLauncher':8}"),
            new Row("logVerbosityConfig.cdi", "{'logVerbosityConfig':{'cdi':3}}", "CDI", "/config/logVerbosity", "3"),
            new Row("tlsSecurityProfile", "{'tlsSecurityProfile':{'type':'Custom','custom':{'ciphers':['ECDHE-RSA-AES128-GCM-SHA256','DHE-RSA-AES128-GCM-SHA256'],'minTLSVersion':'VersionTLS12'}}}",
                    "KubeVirt", "/configuration/tlsConfiguration", "{'minTLSVersion':'VersionTLS12','ciphers':['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256']}"),
            new Row("tlsSecurityProfile", "{'tlsSecurityProfile':{'type':'Modern','modern':{}}}", "CDI", "/config/tlsSecurityProfile",
                    "{'type':'Modern','modern':{}}"),
            new Row("tlsSecurityProfile", "{'tlsSecurityProfile':{'type':'Old','old':{}}}", "NetworkAddonsConfig", "/tlsSecurityProfile",
                    "{'type':'Old','old':{}}"),
            new Row("tlsSecurityProfile", "{'tlsSecurityProfile':{'type':'Old','old':{}}}", "SSP", "/tlsSecurityProfile",
                    "{'type':'Old','old':{}}"),
            new Row("kubeSecondaryDNSNameServerIP", "{'featureGates':{'deployKubeSecondaryDNS':true},'kubeSecondaryDNSNameServerIP':'10.0.0.5'}",
                    "NetworkAddonsConfig", "/kubeSecondaryDNS/nameServerIP", "'10.0.0.5'"),
            new Row("evictionStrategy", "{'evictionStrategy':'External'}", "KubeVirt", "/configuration/evictionStrategy", "'External'"),
            new Row("vmStateStorageClass", "{'vmStateStorageClass':'tpm'}", "KubeVirt", "/configuration/vmStateStorageClass", "'tpm'"),
            new Row("virtualMachineOptions", "{'virtualMachineOptions':{'disableFreePageReporting':true,'disableSerialConsoleLog':true}}",
                    "KubeVirt", "/configuration/virtualMachineOptions", "{'disableFreePageReporting':{},'disableSerialConsoleLog':{}}"),
            new Row("ksmConfiguration", "{'ksmConfiguration':{'nodeLabelSelector':{}}}", "KubeVirt", "/configuration/ksmConfiguration",
                    "{'nodeLabelSelector':{}}"),
            new Row("networkBinding", "{'networkBinding':{'passt':{'sidecarImage':'quay.io/passt:1','networkAttachmentDefinition':'default/passt'}}}",
                    "KubeVirt", "/configuration/network/binding/passt", "{'sidecarImage':'quay.io/passt:1','networkAttachmentDefinition':'default/passt'}"),
            new Row("higherWorkloadDensity", "{'higherWorkloadDensity':{'memoryOvercommitPercentage':150}}", "KubeVirt",
                    "/configuration/developerConfiguration/memoryOvercommit", "150"),
            new Row("instancetypeConfig", "{'instancetypeConfig':{'referencePolicy':'expand'}}", "KubeVirt",
                    "/configuration/instancetype", "{'referencePolicy':'expand'}"),
            new Row("CommonInstancetypesDeployment", "{'CommonInstancetypesDeployment':{'enabled':false}}", "KubeVirt",
                    "/configuration/commonInstancetypesDeployment", "{'enabled':false}"),
            new Row("deployVmConsoleProxy", "{'deployVmConsoleProxy':true}", "SSP", "/tokenGenerationService", "{'enabled':true}"),
            new Row("liveUpdateConfiguration", "{'liveUpdateConfiguration':{'maxCpuSockets':8}}", "KubeVirt",
                    "/configuration/liveUpdateConfiguration", "{'maxCpuSockets':8}"),
            // upstream's always-on settings, whatever the spec says
            new Row("(always) eviction default, several nodes", "{}", "KubeVirt", "/configuration/evictionStrategy", "'LiveMigrate'"),
            new Row("(always) obsolete CPU models", "{}", "KubeVirt", "/configuration/obsoleteCPUModels/Opteron_G2", "true"),
            new Row("(always) seccomp profile", "{}", "KubeVirt", "/configuration/seccompConfiguration",
                    "{'virtualMachineInstanceProfile':{'customProfile':{'localhostProfile':'kubevirt/kubevirt.json'}}}"),
            new Row("(always) VM rollout strategy", "{}", "KubeVirt", "/configuration/vmRolloutStrategy", "'LiveUpdate'"),
            new Row("(always) default network interface and UDN binding", "{}", "KubeVirt", "/configuration/network",
                    "{'defaultNetworkInterface':'masquerade','binding':{'l2bridge':{'domainAttachmentType':'managedTap','migration':{}}}}"),
            new Row("(always) disk verification limit", "{}", "KubeVirt", "/configuration/developerConfiguration/diskVerification",
                    "{'memoryLimit':'2G'}"),
            new Row("(always) workload update strategy", "{}", "KubeVirt", "/workloadUpdateStrategy",
                    "{'workloadUpdateMethods':['LiveMigrate'],'batchEvictionSize':10,'batchEvictionInterval':'1m0s'}"),
            new Row("(always) TLS profile Intermediate", "{}", "KubeVirt", "/configuration/tlsConfiguration/minTLSVersion", "'VersionTLS12'"),
            new Row("(always) CDI feature gates", "{}", "CDI", "/config/featureGates",
                    "['HonorWaitForFirstConsumer','DataVolumeClaimAdoption','WebhookPvcRendering']"),
            new Row("(always) network add-ons", "{}", "NetworkAddonsConfig", "/kubevirtIpamController", "{}"),
            new Row("(always) common templates namespace", "{}", "SSP", "/commonTemplates/namespace", "'openshift'"));

    static Stream<Row> rows() {
        return ROWS.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void eachFieldLandsWhereUpstreamPutsIt(Row row) throws Exception {
        JsonNode component = derive(row.given(), row.component(), new SpecContext("hco-ns"));
        assertThat(component.at(row.pointer()).isMissingNode()).as("%s has nothing at %s: %s", row.component(), row.pointer(),
                component).isFalse();
        assertThat(component.at(row.pointer())).isEqualTo(json(row.expected()));
    }

    @Test
    void aSingleNodeClusterGetsNoEvictionStrategyAndOneControlPlaneReplica() throws Exception {
        JsonNode kubevirt = derive("{}", "KubeVirt", new SpecContext("hco-ns").withWorkerNodes(1));
        assertThat(kubevirt.at("/configuration/evictionStrategy").asText()).isEqualTo("None");
        assertThat(kubevirt.at("/infra/replicas").asInt()).isEqualTo(1);
        JsonNode chosen = derive("{'evictionStrategy':'LiveMigrateIfPossible'}", "KubeVirt",
                new SpecContext("hco-ns").withWorkerNodes(1));
        assertThat(chosen.at("/configuration/evictionStrategy").asText()).isEqualTo("LiveMigrateIfPossible");
    }

    @Test
    void theTuningAnnotationSetsRateLimitsAndAMalformedOneSaysHowToFixIt() throws Exception {
        SpecContext ctx = new SpecContext("hco-ns").withAnnotations(Map.of(KubeVirtSpec.TUNING_POLICY_ANNOTATION,
                "{\"qps\": 100, \"burst\": 150}"));
        JsonNode kubevirt = derive("{'tuningPolicy':'annotation'}", "KubeVirt", ctx);
        assertThat(kubevirt.at("/configuration/handlerConfiguration/restClient/rateLimiter/tokenBucketRateLimiter"))
                .isEqualTo(json("{'qps':100,'burst':150}"));
        SpecContext broken = ctx.withAnnotations(Map.of(KubeVirtSpec.TUNING_POLICY_ANNOTATION, "{\"qps\": 100}"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> derive("{'tuningPolicy':'annotation'}", "KubeVirt", broken))
                .isInstanceOf(InvalidSpecException.class).hasMessageContaining("positive qps and burst");
    }

    @Test
    void theAnnotationsUpstreamSetsOnTheComponentCrs() throws Exception {
        var ctx = new SpecContext("hco-ns");
        var align = JSON.treeToValue(json("{'featureGates':{'alignCPUs':true}}"), HyperConvergedSpec.class);
        assertThat(ComponentCatalog.KUBEVIRT.annotations(ComponentCatalog.KUBEVIRT.desiredSpec(align, ctx)))
                .containsExactly(Map.entry("alpha.kubevirt.io/EmulatorThreadCompleteToEvenParity", ""));
        assertThat(ComponentCatalog.KUBEVIRT.annotations(ComponentCatalog.KUBEVIRT.desiredSpec(new HyperConvergedSpec(), ctx)))
                .isEmpty();
        assertThat(ComponentCatalog.CDI.annotations(ComponentCatalog.CDI.desiredSpec(new HyperConvergedSpec(), ctx)))
                .containsExactly(Map.entry("cdi.kubevirt.io/configAuthority", ""));
    }

    @Test
    void sspGatesOnlyWhenSspIsPartOfTheStack() throws Exception {
        SpecContext withoutSsp = new SpecContext("hco-ns", "1.0.0", 3, Set.of("KubeVirt", "CDI", "NetworkAddonsConfig"),
                Map.of(), Map.of());
        JsonNode kubevirt = derive("{}", "KubeVirt", withoutSsp);
        assertThat(kubevirt.at("/configuration/developerConfiguration/featureGates").toString())
                .doesNotContain("WithHostModelCPU").doesNotContain("HypervStrictCheck");
    }

    @Test
    void machineTypesFromTheEnvironmentBecomeArchitectureConfiguration() throws Exception {
        SpecContext ctx = new SpecContext("hco-ns", "1.0.0", 3, Set.of(), Map.of(), Map.of("amd64", "pc-q35-rhel9.4.0"));
        JsonNode kubevirt = derive("{}", "KubeVirt", ctx);
        assertThat(kubevirt.at("/configuration/architectureConfiguration")).isEqualTo(json(
                "{'amd64':{'machineType':'pc-q35-rhel9.4.0','ovmfPath':'/usr/share/OVMF','emulatedMachines':['q35*','pc-q35*']}}"));
    }

    /** Every top-level field of upstream's v1beta1 spec is accepted, and either mapped (a row above) or listed as not applied. */
    @Test
    void everyTopLevelFieldIsMappedOrListedAsNotApplied() {
        Set<String> fields = topLevelFields();
        Set<String> mapped = new LinkedHashSet<>();
        ROWS.forEach(r -> mapped.add(r.field().split("\\.")[0]));
        List<String> uncovered = new ArrayList<>();
        for (String f : fields) {
            if (!mapped.contains(f) && !UnappliedFields.FIELDS.containsKey(f)) {
                uncovered.add(f);
            }
        }
        assertThat(uncovered).as("fields neither mapped nor listed as not applied").isEmpty();
        assertThat(fields).containsAll(UpstreamApi.V1BETA1_SPEC_FIELDS);
    }

    @Test
    void theApiDocsTableIsThisTable() throws IOException {
        String readme = Files.readString(API_DOC);
        String table = START + "\n" + renderTable() + END;
        int start = readme.indexOf(START);
        int end = readme.indexOf(END);
        assertThat(start).as("docs/api.md has the API coverage markers").isGreaterThanOrEqualTo(0);
        String current = readme.substring(start, end + END.length());
        if (Boolean.getBoolean("hco.readme.update") && !current.equals(table)) {
            Files.writeString(API_DOC, readme.replace(current, table));
            return;
        }
        assertThat(current).as("docs/api.md API coverage table (rewrite: -Dhco.readme.update=true)").isEqualTo(table);
    }

    public static String upstreamSample() {
        return UpstreamApi.SAMPLE;
    }

    /** A v1beta1 spec (YAML) setting every upstream field, with values of upstream's types. */
    public static String everyUpstreamField() {
        return UpstreamApi.EVERY_FIELD;
    }

    public static List<String> upstreamFields() {
        return UpstreamApi.V1BETA1_SPEC_FIELDS;
    }

    /** One spec setting every mapped field of the table at once (for checks against real CRDs). */
    public static HyperConvergedSpec everyMappedFieldSet() throws Exception {
        ObjectNode merged = JSON.createObjectNode();
        for (Row r : ROWS) {
            merged.setAll((ObjectNode) json(r.given()));
        }
        return JSON.treeToValue(merged, HyperConvergedSpec.class);
    }

    static String renderTable() {
        StringBuilder out = new StringBuilder("| HyperConverged field (v1beta1) | Component field | Tested |\n|---|---|---|\n");
        Map<String, List<String>> byField = new LinkedHashMap<>();
        for (Row r : ROWS) {
            byField.computeIfAbsent(r.field(), k -> new ArrayList<>()).add(r.component() + " `spec" + r.pointer().replaceAll("/[0-9]+$", "").replace('/', '.') + "`");
        }
        byField.forEach((field, targets) -> out.append("| `").append(field).append("` | ").append(String.join("<br>", targets))
                .append(" | FieldMappingTest |\n"));
        UnappliedFields.FIELDS.forEach((field, why) -> out.append("| `").append(field).append("` | accepted, not applied: ")
                .append(why).append(" | UnappliedFieldsTest |\n"));
        return out.toString();
    }

    static Set<String> topLevelFields() {
        Set<String> out = new LinkedHashSet<>();
        JSON.valueToTree(new HyperConvergedSpec()).fieldNames().forEachRemaining(out::add);
        for (var f : HyperConvergedSpec.class.getFields()) {
            var p = f.getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
            out.add(p != null ? p.value() : f.getName());
        }
        return out;
    }

    static JsonNode derive(String given, String component, SpecContext ctx) throws Exception {
        ObjectNode spec = (ObjectNode) json(given);
        HyperConvergedSpec hcSpec = JSON.treeToValue(spec, HyperConvergedSpec.class);
        ComponentDescriptor d = ComponentCatalog.ALL.stream().filter(c -> c.name().equals(component)).findFirst().orElseThrow();
        return JSON.valueToTree(d.desiredSpec(hcSpec, ctx));
    }

    static JsonNode json(String singleQuoted) {
        try {
            return JSON.readTree(singleQuoted.replace('\'', '"'));
        } catch (IOException e) {
            throw new IllegalArgumentException(singleQuoted, e);
        }
    }
}
