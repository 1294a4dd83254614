package io.kubevirt.hco.api.conversion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.kubevirt.hco.components.FieldMappingTest;

/** v1beta1 ↔ v1, field by field, and back without losing anything. */
class HyperConvergedConversionTest {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @SuppressWarnings("unchecked")
    static Map<String, Object> yaml(String text) {
        try {
            return YAML.readValue(text, Map.class);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static Map<String, Object> v1beta1(String spec) {
        return yaml("apiVersion: hco.kubevirt.io/v1beta1\nkind: HyperConverged\nmetadata:\n  name: kubevirt-hyperconverged\n"
                + "  namespace: ns\nspec:\n" + spec.indent(2));
    }

    @Test
    void everyUpstreamFieldAndUpstreamsSampleSurviveTheRoundTrip() {
        for (Map<String, Object> original : List.of(v1beta1(FieldMappingTest.everyUpstreamField()),
                yaml(FieldMappingTest.upstreamSample()))) {
            Map<String, Object> v1 = HyperConvergedConversion.convert(original, HyperConvergedConversion.V1);
            assertThat(v1.get("apiVersion")).isEqualTo("hco.kubevirt.io/v1");
            Map<String, Object> back = HyperConvergedConversion.convert(v1, HyperConvergedConversion.V1BETA1);
            assertThat(back).isEqualTo(original);
        }
    }

    @Test
    void fieldsLandWhereUpstreamsV1PutsThem() {
        Map<String, Object> v1 = HyperConvergedConversion.convert(v1beta1("""
                liveMigrationConfig: {parallelMigrationsPerCluster: 5}
                defaultCPUModel: Haswell
                virtualMachineOptions: {disableFreePageReporting: true}
                resourceRequirements: {vmiCPUAllocationRatio: 4, storageWorkloads: {limits: {cpu: "1"}}}
                infra: {nodePlacement: {nodeSelector: {a: b}}}
                workloads: {nodePlacement: {nodeSelector: {c: d}}}
                featureGates: {downwardMetrics: true, videoConfig: false, persistentReservation: true, disableMDevConfiguration: true}
                enableApplicationAwareQuota: true
                CommonInstancetypesDeployment: {enabled: false}
                certConfig: {ca: {duration: 48h0m0s, renewBefore: 24h0m0s}}
                """), HyperConvergedConversion.V1);
        assertThat(v1.get("spec")).isEqualTo(yaml("""
                virtualization:
                  liveMigrationConfig: {parallelMigrationsPerCluster: 5}
                  mediatedDevicesConfiguration: {enabled: false}
                  virtualMachineOptions: {disableFreePageReporting: true, defaultCPUModel: Haswell}
                  vmiCPUAllocationRatio: 4
                storage:
                  workloadResourceRequirements: {limits: {cpu: "1"}}
                  persistentReservationConfiguration: {enabled: true}
                workloadSources:
                  commonInstancetypesDeployment: {enabled: false}
                security:
                  certConfig: {ca: {duration: 48h0m0s, renewBefore: 24h0m0s}}
                deployment:
                  nodePlacements: {infra: {nodeSelector: {a: b}}, workload: {nodeSelector: {c: d}}}
                  applicationAwareConfig: {enable: true}
                featureGates:
                - {name: downwardMetrics}
                - {name: videoConfig, enabled: "False"}
                """));
        assertThat(v1.get("metadata")).as("nothing v1 cannot hold").isEqualTo(
                yaml("{name: kubevirt-hyperconverged, namespace: ns}"));
    }

    @Test
    void whatV1CannotHoldTravelsInAnAnnotationAndComesBack() {
        Map<String, Object> original = v1beta1("""
                localStorageClassName: local
                vddkInitImage: quay.io/vddk:8
                obsoleteCPUs: {minCPUModel: Penryn, cpuModels: [Nehalem]}
                infra: {}
                """);
        Map<String, Object> v1 = HyperConvergedConversion.convert(original, HyperConvergedConversion.V1);
        @SuppressWarnings("unchecked")
        Map<String, Object> annotations = (Map<String, Object>) ((Map<String, Object>) v1.get("metadata")).get("annotations");
        assertThat(yaml((String) annotations.get(HyperConvergedConversion.V1BETA1_ONLY))).isEqualTo(yaml("""
                localStorageClassName: local
                vddkInitImage: quay.io/vddk:8
                obsoleteCPUs: {minCPUModel: Penryn}
                infra: {}
                """));
        assertThat(HyperConvergedConversion.convert(v1, HyperConvergedConversion.V1BETA1)).isEqualTo(original);
    }

    @Test
    void v1OnlyFieldsSurviveV1beta1Storage() {
        Map<String, Object> original = yaml("""
                apiVersion: hco.kubevirt.io/v1
                kind: HyperConverged
                metadata: {name: kubevirt-hyperconverged, annotations: {mine: kept}}
                spec:
                  featureGates: [{name: objectGraph}, {name: template, enabled: "False"}]
                  virtualization:
                    hypervisors: [{name: kvm}]
                    roleAggregationStrategy: Manual
                    liveMigrationConfig: {completionTimeoutPerGiB: 20}
                  networking:
                    kubeMacPoolConfiguration: {rangeStart: "02:00:00:00:00:00", rangeEnd: "02:FF:FF:FF:FF:FF"}
                  deployment:
                    deployNetworkResourcesInjector: true
                    uninstallStrategy: RemoveWorkloads
                status:
                  conditions: [{type: Available, status: "True"}]
                """);
        Map<String, Object> stored = HyperConvergedConversion.convert(original, HyperConvergedConversion.V1BETA1);
        assertThat(stored.get("spec")).isEqualTo(yaml("""
                featureGates: {objectGraph: true, template: false}
                liveMigrationConfig: {completionTimeoutPerGiB: 20}
                uninstallStrategy: RemoveWorkloads
                """));
        assertThat(stored.get("status")).isEqualTo(original.get("status"));
        assertThat(HyperConvergedConversion.convert(stored, HyperConvergedConversion.V1)).isEqualTo(original);
    }

    @Test
    void anUnknownVersionIsRefusedWithBothKnownOnesNamed() {
        assertThatThrownBy(() -> HyperConvergedConversion.convert(v1beta1("{}"), "hco.kubevirt.io/v2"))
                .hasMessageContaining("hco.kubevirt.io/v1beta1").hasMessageContaining("hco.kubevirt.io/v1");
    }

    /** Every v1beta1 field has a place in v1 (a move) or is one of the few v1 dropped; every v1 field comes from one or is new. */
    @Test
    void theTableCoversBothVersions() {
        Set<String> moved = new LinkedHashSet<>();
        FieldMoves.TABLE.forEach(m -> moved.add(m.v1beta1().split("\\.")[0]));
        List<String> v1beta1Only = List.of("localStorageClassName", "vddkInitImage", "tektonPipelinesNamespace",
                "tektonTasksNamespace", "featureGates", "infra", "workloads", "obsoleteCPUs", "resourceRequirements");
        List<String> missing = new ArrayList<>();
        for (String field : FieldMappingTest.upstreamFields()) {
            if (!moved.contains(field) && !v1beta1Only.contains(field)) {
                missing.add(field);
            }
        }
        assertThat(missing).isEmpty();
        Set<String> v1Targets = new LinkedHashSet<>();
        FieldMoves.TABLE.forEach(m -> v1Targets.add(m.v1()));
        for (var group : io.kubevirt.hco.api.v1.HyperConvergedSpec.class.getFields()) {
            if (group.getName().equals("featureGates")) {
                continue;
            }
            for (var f : group.getType().getFields()) {
                String path = group.getName() + "." + f.getName();
                boolean target = v1Targets.stream().anyMatch(t -> t.equals(path) || t.startsWith(path + "."));
                boolean v1Only = List.of("virtualization.changedBlockTrackingLabelSelectors", "virtualization.hypervisors",
                        "virtualization.roleAggregationStrategy", "networking.kubeMacPoolConfiguration",
                        "deployment.deployNetworkResourcesInjector").contains(path);
                assertThat(target || v1Only).as(path + " comes from a v1beta1 field or is new in v1").isTrue();
            }
        }
    }
}
