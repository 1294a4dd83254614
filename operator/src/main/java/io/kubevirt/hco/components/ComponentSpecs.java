package io.kubevirt.hco.components;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubevirt.hco.api.v1beta1.CertRotation;
import io.kubevirt.hco.api.v1beta1.FeatureGates;
import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;
import io.kubevirt.hco.api.v1beta1.NodePlacement;
import io.kubevirt.hco.api.v1beta1.NodePlacementConfig;
import io.kubevirt.hco.api.v1beta1.UninstallStrategy;
import io.kubevirt.hco.components.ComponentDescriptor.SpecContext;

/**
 * How each component's spec follows from the HyperConverged spec. Pure functions: the same
 * HyperConverged spec always gives the same component specs, so a difference on the cluster is
 * either a HyperConverged change or an out-of-band edit.
 */
final class ComponentSpecs {

    private ComponentSpecs() {
    }

    static Map<String, Object> kubevirt(HyperConvergedSpec spec, SpecContext ctx) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("certificateRotateStrategy", Map.of("selfSigned", caAndServer(spec)));
        Map<String, Object> configuration = new LinkedHashMap<>();
        configuration.put("developerConfiguration", Map.of("featureGates", kubevirtFeatureGates(spec.featureGates)));
        var lm = spec.liveMigrationConfig;
        Map<String, Object> migrations = new LinkedHashMap<>();
        migrations.put("parallelMigrationsPerCluster", lm.parallelMigrationsPerCluster);
        migrations.put("parallelOutboundMigrationsPerNode", lm.parallelOutboundMigrationsPerNode);
        migrations.put("bandwidthPerMigration", lm.bandwidthPerMigration);
        migrations.put("completionTimeoutPerGiB", lm.completionTimeoutPerGiB);
        migrations.put("progressTimeout", lm.progressTimeout);
        migrations.put("allowPostCopy", Boolean.TRUE.equals(lm.allowPostCopy));
        configuration.put("migrations", migrations);
        out.put("configuration", configuration);
        out.put("infra", Map.of("nodePlacement", SpecJson.toMap(placement(spec.infra))));
        out.put("workloads", Map.of("nodePlacement", SpecJson.toMap(placement(spec.workloads))));
        out.put("uninstallStrategy", spec.uninstallStrategy == UninstallStrategy.RemoveWorkloads ? ""
                : "BlockUninstallIfWorkloadsExist");
        return SpecJson.normalize(out);
    }

    static Map<String, Object> cdi(HyperConvergedSpec spec, SpecContext ctx) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("certConfig", caAndServer(spec));
        out.put("infra", SpecJson.toMap(placement(spec.infra)));
        out.put("workload", SpecJson.toMap(placement(spec.workloads)));
        out.put("uninstallStrategy", spec.uninstallStrategy.name());
        List<String> gates = new ArrayList<>(List.of("HonorWaitForFirstConsumer"));
        if (Boolean.TRUE.equals(spec.featureGates.enableMultiArchBootImageImport)) {
            gates.add("MultiArchBootImageImport");
        }
        out.put("config", Map.of("featureGates", gates));
        return SpecJson.normalize(out);
    }

    static Map<String, Object> networkAddons(HyperConvergedSpec spec, SpecContext ctx) {
        Map<String, Object> out = new LinkedHashMap<>();
        CertRotation ca = spec.certConfig.ca;
        CertRotation server = spec.certConfig.server;
        out.put("selfSignConfiguration", Map.of(
                "caRotateInterval", ca.duration, "caOverlapInterval", ca.renewBefore,
                "certRotateInterval", server.duration, "certOverlapInterval", server.renewBefore));
        out.put("placementConfiguration", Map.of(
                "infra", SpecJson.toMap(placement(spec.infra)),
                "workloads", SpecJson.toMap(placement(spec.workloads))));
        out.put("linuxBridge", Map.of());
        out.put("multus", Map.of());
        out.put("kubeMacPool", Map.of());
        return SpecJson.normalize(out);
    }

    static Map<String, Object> ssp(HyperConvergedSpec spec, SpecContext ctx) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("commonTemplates", Map.of("namespace", ctx.operatorNamespace()));
        out.put("templateValidator", Map.of("replicas", 2, "placement", SpecJson.toMap(placement(spec.infra))));
        out.put("enableMultipleArchitectures", Boolean.TRUE.equals(spec.featureGates.enableMultiArchBootImageImport));
        return SpecJson.normalize(out);
    }

    /** KubeVirt and CDI share this shape: {ca: {duration, renewBefore}, server: {duration, renewBefore}}. */
    private static Map<String, Object> caAndServer(HyperConvergedSpec spec) {
        CertRotation ca = spec.certConfig.ca;
        CertRotation server = spec.certConfig.server;
        return Map.of("ca", Map.of("duration", ca.duration, "renewBefore", ca.renewBefore),
                "server", Map.of("duration", server.duration, "renewBefore", server.renewBefore));
    }

    private static List<String> kubevirtFeatureGates(FeatureGates gates) {
        List<String> out = new ArrayList<>();
        if (Boolean.TRUE.equals(gates.downwardMetrics)) {
            out.add("DownwardMetrics");
        }
        if (Boolean.TRUE.equals(gates.persistentReservation)) {
            out.add("PersistentReservation");
        }
        if (Boolean.TRUE.equals(gates.alignCPUs)) {
            out.add("AlignCPUs");
        }
        return out;
    }

    private static NodePlacement placement(NodePlacementConfig config) {
        return config == null || config.nodePlacement == null ? new NodePlacement() : config.nodePlacement;
    }
}
