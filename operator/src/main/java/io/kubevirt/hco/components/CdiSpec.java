package io.kubevirt.hco.components;

import java.util.List;
import java.util.Map;

import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;

/** The CDI CR's spec as upstream HCO derives it: its three always-on feature gates, TLS, storage settings. */
final class CdiSpec {

    static final List<String> FEATURE_GATES = List.of("HonorWaitForFirstConsumer", "DataVolumeClaimAdoption",
            "WebhookPvcRendering");

    private CdiSpec() {
    }

    /** With it, CDI takes its CR's spec.config as the authority over CDIConfig (upstream always sets it). */
    static final String CONFIG_AUTHORITY_ANNOTATION = "cdi.kubevirt.io/configAuthority";

    static Map<String, String> annotations(Map<String, Object> desiredSpec) {
        return Map.of(CONFIG_AUTHORITY_ANNOTATION, "");
    }

    static Map<String, Object> of(HyperConvergedSpec spec, SpecContext ctx) {
        var rr = spec.resourceRequirements;
        Fields config = Fields.object()
                .put("featureGates", FEATURE_GATES)
                .put("tlsSecurityProfile", TlsProfiles.asProfile(spec.tlsSecurityProfile))
                .put("podResourceRequirements", rr == null ? null : SpecJson.toMap(rr.storageWorkloads))
                .put("scratchSpaceStorageClass", spec.scratchSpaceStorageClass)
                .put("filesystemOverhead", SpecJson.toMap(spec.filesystemOverhead))
                .put("insecureRegistries", spec.storageImport == null ? null : spec.storageImport.insecureRegistries)
                .put("logVerbosity", spec.logVerbosityConfig == null ? null : spec.logVerbosityConfig.cdi);
        return Fields.object()
                .put("uninstallStrategy", spec.uninstallStrategy.name())
                .put("config", config)
                .put("certConfig", GoDuration.canonicalCertConfig(spec.certConfig))
                // CDI's infra is a NodePlacement inlined in its ComponentConfig, workload a NodePlacement
                .put("infra", spec.infra == null ? null : SpecJson.toMap(spec.infra.nodePlacement))
                .put("workload", spec.workloads == null ? null : SpecJson.toMap(spec.workloads.nodePlacement))
                .map();
    }

}
