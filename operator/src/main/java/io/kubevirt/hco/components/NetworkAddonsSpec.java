package io.kubevirt.hco.components;

import java.util.Map;

import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;
import io.kubevirt.hco.api.v1beta1.NodePlacementConfig;

/**
 * The NetworkAddonsConfig's spec as upstream HCO derives it: Multus, the Linux bridge plugin,
 * KubeMacPool and the KubeVirt IPAM controller always; Open vSwitch when the HyperConverged's
 * {@code deployOVS} annotation says "true"; KubeSecondaryDNS with its feature gate.
 */
final class NetworkAddonsSpec {

    static final String DEPLOY_OVS_ANNOTATION = "deployOVS";

    private NetworkAddonsSpec() {
    }

    static Map<String, Object> of(HyperConvergedSpec spec, SpecContext ctx) {
        var ca = spec.certConfig.ca;
        var server = spec.certConfig.server;
        Fields out = Fields.object().putEmpty("multus").putEmpty("linuxBridge").putEmpty("kubeMacPool")
                .putEmpty("kubevirtIpamController");
        if (Boolean.TRUE.equals(spec.featureGates.deployKubeSecondaryDNS)) {
            Fields dns = Fields.object().put("nameServerIP", blankToNull(spec.kubeSecondaryDNSNameServerIP));
            if (dns.map().isEmpty()) {
                out.putEmpty("kubeSecondaryDNS");
            } else {
                out.put("kubeSecondaryDNS", dns);
            }
        }
        if ("true".equals(ctx.annotations().get(DEPLOY_OVS_ANNOTATION))) {
            out.putEmpty("ovs");
        }
        out.put("placementConfiguration", Fields.object().put("infra", placement(spec.infra))
                .put("workloads", placement(spec.workloads)));
        out.put("selfSignConfiguration", Fields.object()
                .put("caRotateInterval", GoDuration.canonical(ca.duration))
                .put("caOverlapInterval", GoDuration.canonical(ca.renewBefore))
                .put("certRotateInterval", GoDuration.canonical(server.duration))
                .put("certOverlapInterval", GoDuration.canonical(server.renewBefore)));
        out.put("tlsSecurityProfile", TlsProfiles.asProfile(spec.tlsSecurityProfile));
        return out.map();
    }

    private static Map<String, Object> placement(NodePlacementConfig config) {
        return config == null ? null : SpecJson.toMap(config.nodePlacement);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
