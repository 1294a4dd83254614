package io.kubevirt.hco.components;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;

/**
 * Per component, the whole spec derived from upstream's own sample HyperConverged on a multi-node
 * cluster with all four components, written out from what upstream's handlers (kubevirt.go, cdi.go,
 * networkAddons.go, ssp.go) set for that input. Left out, as the README says: upstream's common
 * golden images in SSP's dataImportCronTemplates, SSP's cluster architectures, KubeVirt's
 * productName/productVersion/productComponent.
 */
class UpstreamSampleSpecsTest {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static Map<String, Object> derived(ComponentDescriptor d) throws Exception {
        var spec = YAML.treeToValue(YAML.readTree(UpstreamApi.SAMPLE).path("spec"), HyperConvergedSpec.class);
        return SpecJson.normalize(d.desiredSpec(spec, new SpecContext("kubevirt-hyperconverged")));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> yaml(String text) throws Exception {
        return SpecJson.normalize(YAML.readValue(text, Map.class));
    }

    @Test
    void kubevirt() throws Exception {
        assertThat(derived(ComponentCatalog.KUBEVIRT)).isEqualTo(yaml("""
                certificateRotateStrategy:
                  selfSigned:
                    ca: {duration: 48h0m0s, renewBefore: 24h0m0s}
                    server: {duration: 24h0m0s, renewBefore: 12h0m0s}
                configuration:
                  developerConfiguration:
                    featureGates: [CPUManager, Snapshot, ExpandDisks, HostDevices, VMExport, KubevirtSeccompProfile,
                                   WithHostModelCPU, HypervStrictCheck, HotplugVolumes]
                    diskVerification: {memoryLimit: 2G}
                    memoryOvercommit: 100
                    cpuAllocationRatio: 10
                  network:
                    defaultNetworkInterface: masquerade
                    binding: {l2bridge: {domainAttachmentType: managedTap, migration: {}}}
                  migrations: {completionTimeoutPerGiB: 150, parallelOutboundMigrationsPerNode: 2,
                               parallelMigrationsPerCluster: 5, progressTimeout: 150, allowAutoConverge: false,
                               allowPostCopy: false}
                  obsoleteCPUModels: {"486": true, "486-v1": true, pentium: true, pentium-v1: true, pentium2: true,
                    pentium2-v1: true, pentium3: true, pentium3-v1: true, pentiumpro: true, pentiumpro-v1: true,
                    coreduo: true, coreduo-v1: true, n270: true, n270-v1: true, core2duo: true, core2duo-v1: true,
                    Conroe: true, Conroe-v1: true, athlon: true, athlon-v1: true, phenom: true, phenom-v1: true,
                    qemu64: true, qemu64-v1: true, qemu32: true, qemu32-v1: true, kvm64: true, kvm64-v1: true,
                    kvm32: true, kvm32-v1: true, Opteron_G1: true, Opteron_G1-v1: true, Opteron_G2: true,
                    Opteron_G2-v1: true}
                  tlsConfiguration:
                    minTLSVersion: VersionTLS12
                    ciphers: [TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384, TLS_CHACHA20_POLY1305_SHA256,
                              TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
                              TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
                              TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256]
                  seccompConfiguration:
                    virtualMachineInstanceProfile: {customProfile: {localhostProfile: kubevirt/kubevirt.json}}
                  evictionStrategy: LiveMigrate
                  vmRolloutStrategy: LiveUpdate
                uninstallStrategy: BlockUninstallIfWorkloadsExist
                workloadUpdateStrategy: {workloadUpdateMethods: [LiveMigrate], batchEvictionSize: 10, batchEvictionInterval: 1m0s}
                serviceMonitorNamespace: kubevirt-hyperconverged
                """));
    }

    @Test
    void cdi() throws Exception {
        assertThat(derived(ComponentCatalog.CDI)).isEqualTo(yaml("""
                uninstallStrategy: BlockUninstallIfWorkloadsExist
                config:
                  featureGates: [HonorWaitForFirstConsumer, DataVolumeClaimAdoption, WebhookPvcRendering]
                  tlsSecurityProfile: {type: Intermediate, intermediate: {}}
                certConfig:
                  ca: {duration: 48h0m0s, renewBefore: 24h0m0s}
                  server: {duration: 24h0m0s, renewBefore: 12h0m0s}
                """));
    }

    @Test
    void networkAddons() throws Exception {
        assertThat(derived(ComponentCatalog.NETWORK_ADDONS)).isEqualTo(yaml("""
                multus: {}
                linuxBridge: {}
                kubeMacPool: {}
                kubevirtIpamController: {}
                selfSignConfiguration: {caRotateInterval: 48h0m0s, caOverlapInterval: 24h0m0s, certRotateInterval: 24h0m0s,
                                        certOverlapInterval: 12h0m0s}
                tlsSecurityProfile: {type: Intermediate, intermediate: {}}
                """));
    }

    @Test
    void ssp() throws Exception {
        assertThat(derived(ComponentCatalog.SSP)).isEqualTo(yaml("""
                templateValidator: {replicas: 2}
                commonTemplates: {namespace: openshift}
                enableMultipleArchitectures: false
                tlsSecurityProfile: {type: Intermediate, intermediate: {}}
                tokenGenerationService: {enabled: false}
                """));
    }
}
