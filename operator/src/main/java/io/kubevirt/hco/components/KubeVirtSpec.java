package io.kubevirt.hco.components;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubevirt.hco.api.v1beta1.EvictionStrategy;
import io.kubevirt.hco.api.v1beta1.FeatureGates;
import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;
import io.kubevirt.hco.api.v1beta1.LiveMigrationConfig;
import io.kubevirt.hco.api.v1beta1.MediatedDevicesConfiguration;
import io.kubevirt.hco.api.v1beta1.NodePlacementConfig;
import io.kubevirt.hco.api.v1beta1.PermittedHostDevices;
import io.kubevirt.hco.api.v1beta1.UninstallStrategy;

/**
 * The KubeVirt CR's spec as upstream HCO derives it from the HyperConverged, including what
 * upstream always sets whatever the user wrote: the mandatory feature gates, the always-obsolete
 * CPU models, the seccomp profile, masquerade as the default interface with the primary UDN
 * binding, LiveUpdate rollouts, a 2G disk verification limit and, when the user sets none,
 * LiveMigrate as eviction strategy on multi-node clusters (None on a single node, where there is
 * nowhere to migrate to).
 */
final class KubeVirtSpec {

    /** Set on every KubeVirt CR: the user cannot switch them off. */
    static final List<String> MANDATORY_GATES = List.of("CPUManager", "Snapshot", "ExpandDisks", "HostDevices", "VMExport",
            "KubevirtSeccompProfile");
    /** Set when SSP is part of the stack (its templates use them). */
    static final List<String> SSP_GATES = List.of("WithHostModelCPU", "HypervStrictCheck");
    static final List<String> ALWAYS_OBSOLETE_CPU_MODELS = List.of("486", "486-v1", "pentium", "pentium-v1", "pentium2",
            "pentium2-v1", "pentium3", "pentium3-v1", "pentiumpro", "pentiumpro-v1", "coreduo", "coreduo-v1", "n270",
            "n270-v1", "core2duo", "core2duo-v1", "Conroe", "Conroe-v1", "athlon", "athlon-v1", "phenom", "phenom-v1",
            "qemu64", "qemu64-v1", "qemu32", "qemu32-v1", "kvm64", "kvm64-v1", "kvm32", "kvm32-v1", "Opteron_G1",
            "Opteron_G1-v1", "Opteron_G2", "Opteron_G2-v1");
    static final String SECCOMP_PROFILE = "kubevirt/kubevirt.json";
    static final String DISK_VERIFICATION_MEMORY_LIMIT = "2G";
    static final String PRIMARY_UDN_BINDING = "l2bridge";
    static final int HIGH_BURST_QPS = 200;
    static final int HIGH_BURST_BURST = 400;
    /** The annotation holding qps and burst for tuningPolicy: annotation. */
    static final String TUNING_POLICY_ANNOTATION = "hco.kubevirt.io/tuningPolicy";
    private static final Map<String, List<String>> EMULATED_MACHINES = Map.of("amd64", List.of("q35*", "pc-q35*"),
            "arm64", List.of("virt*"), "s390x", List.of("s390-ccw-virtio*"));
    private static final Map<String, String> OVMF_PATHS = Map.of("amd64", "/usr/share/OVMF", "arm64", "/usr/share/AAVMF",
            "s390x", "");

    private KubeVirtSpec() {
    }

    /** KubeVirt reads AlignCPUs' behaviour from this annotation of its CR, set with the feature gate as upstream does. */
    static final String EVEN_PARITY_ANNOTATION = "alpha.kubevirt.io/EmulatorThreadCompleteToEvenParity";

    static Map<String, String> annotations(Map<String, Object> desiredSpec) {
        Object configuration = desiredSpec.get("configuration");
        Object developer = configuration instanceof Map<?, ?> c ? c.get("developerConfiguration") : null;
        Object gates = developer instanceof Map<?, ?> d ? d.get("featureGates") : null;
        return gates instanceof List<?> l && l.contains("AlignCPUs") ? Map.of(EVEN_PARITY_ANNOTATION, "") : Map.of();
    }

    static Map<String, Object> of(HyperConvergedSpec spec, SpecContext ctx) {
        return Fields.object()
                .put("certificateRotateStrategy", Fields.object().put("selfSigned", GoDuration.canonicalCertConfig(spec.certConfig)))
                .put("configuration", configuration(spec, ctx))
                .put("infra", componentConfig(spec.infra, !ctx.highlyAvailable()))
                .put("workloads", componentConfig(spec.workloads, false))
                .put("uninstallStrategy", spec.uninstallStrategy == UninstallStrategy.RemoveWorkloads ? ""
                        : "BlockUninstallIfWorkloadsExist")
                .put("workloadUpdateStrategy", SpecJson.toMap(spec.workloadUpdateStrategy))
                .put("serviceMonitorNamespace", ctx.operatorNamespace())
                .map();
    }

    private static Fields configuration(HyperConvergedSpec spec, SpecContext ctx) {
        var rr = spec.resourceRequirements;
        var vmo = spec.virtualMachineOptions;
        Fields vmOptions = Fields.object();
        if (vmo != null && Boolean.TRUE.equals(vmo.disableFreePageReporting)) {
            vmOptions.putEmpty("disableFreePageReporting");
        }
        if (vmo != null && Boolean.TRUE.equals(vmo.disableSerialConsoleLog)) {
            vmOptions.putEmpty("disableSerialConsoleLog");
        }
        Map<String, Object> rateLimits = rateLimits(spec, ctx);
        return Fields.object()
                .put("developerConfiguration", developerConfiguration(spec, ctx))
                .put("network", Fields.object().put("defaultNetworkInterface", "masquerade").put("binding", bindings(spec)))
                .put("migrations", migrations(spec.liveMigrationConfig))
                .put("permittedHostDevices", permittedHostDevices(spec.permittedHostDevices))
                .put("mediatedDevicesConfiguration", mediatedDevices(spec))
                .put("obsoleteCPUModels", obsoleteCpuModels(spec))
                .put("minCPUModel", spec.obsoleteCPUs == null || spec.obsoleteCPUs.minCPUModel == null
                        || spec.obsoleteCPUs.minCPUModel.isEmpty() ? null : spec.obsoleteCPUs.minCPUModel)
                .put("tlsConfiguration", TlsProfiles.kubevirt(spec.tlsSecurityProfile))
                .put("apiConfiguration", rateLimits)
                .put("webhookConfiguration", rateLimits)
                .put("controllerConfiguration", rateLimits)
                .put("handlerConfiguration", rateLimits)
                .put("seccompConfiguration", Fields.object().put("virtualMachineInstanceProfile", Fields.object()
                        .put("customProfile", Fields.object().put("localhostProfile", SECCOMP_PROFILE))))
                .put("evictionStrategy", evictionStrategy(spec.evictionStrategy, ctx))
                .put("ksmConfiguration", SpecJson.normalizeValue(spec.ksmConfiguration))
                .put("vmRolloutStrategy", "LiveUpdate")
                .put("liveUpdateConfiguration", SpecJson.normalizeValue(spec.liveUpdateConfiguration))
                .put("architectureConfiguration", architectures(ctx.machineTypes()))
                .put("cpuModel", spec.defaultCPUModel)
                .put("defaultRuntimeClass", spec.defaultRuntimeClass)
                .put("vmStateStorageClass", spec.vmStateStorageClass)
                .put("virtualMachineOptions", vmOptions)
                .put("autoCPULimitNamespaceLabelSelector", rr == null ? null : SpecJson.toMap(rr.autoCPULimitNamespaceLabelSelector))
                .put("instancetype", SpecJson.normalizeValue(spec.instancetypeConfig))
                .put("commonInstancetypesDeployment", SpecJson.normalizeValue(spec.commonInstancetypesDeployment));
    }

    static String evictionStrategy(EvictionStrategy chosen, SpecContext ctx) {
        if (chosen != null) {
            return chosen.name();
        }
        return ctx.highlyAvailable() ? EvictionStrategy.LiveMigrate.name() : EvictionStrategy.None.name();
    }

    private static Fields developerConfiguration(HyperConvergedSpec spec, SpecContext ctx) {
        var lv = spec.logVerbosityConfig;
        var rr = spec.resourceRequirements;
        return Fields.object()
                .put("featureGates", featureGates(spec.featureGates, ctx))
                .put("diskVerification", Fields.object().put("memoryLimit", DISK_VERIFICATION_MEMORY_LIMIT))
                .put("memoryOvercommit", spec.higherWorkloadDensity == null ? null
                        : spec.higherWorkloadDensity.memoryOvercommitPercentage)
                .put("logVerbosity", lv == null ? null : SpecJson.normalizeValue(lv.kubevirt))
                .put("cpuAllocationRatio", rr == null ? null : rr.vmiCPUAllocationRatio);
    }

    static List<String> featureGates(FeatureGates gates, SpecContext ctx) {
        List<String> out = new ArrayList<>(MANDATORY_GATES);
        if (ctx.stack().contains("SSP")) {
            out.addAll(SSP_GATES);
        }
        addIf(out, gates.downwardMetrics, false, "DownwardMetrics");
        addIf(out, gates.persistentReservation, false, "PersistentReservation");
        addIf(out, gates.alignCPUs, false, "AlignCPUs");
        addIf(out, gates.videoConfig, true, "VideoConfig");
        addIf(out, gates.objectGraph, false, "ObjectGraph");
        addIf(out, gates.decentralizedLiveMigration, false, "DecentralizedLiveMigration");
        out.add(Boolean.TRUE.equals(gates.declarativeHotplugVolumes) ? "DeclarativeHotplugVolumes" : "HotplugVolumes");
        if (Boolean.TRUE.equals(gates.incrementalBackup)) {
            out.add("IncrementalBackup");
            out.add("UtilityVolumes");
        }
        return out;
    }

    private static void addIf(List<String> out, Boolean value, boolean whenUnset, String gate) {
        if (value == null ? whenUnset : value) {
            out.add(gate);
        }
    }


    /** Upstream writes nothing for a group without placement, and one replica of the control plane on a single node. */
    private static Fields componentConfig(NodePlacementConfig config, boolean singleReplica) {
        Fields out = Fields.object();
        if (config != null && config.nodePlacement != null) {
            Map<String, Object> placement = SpecJson.toMap(config.nodePlacement);
            if (placement.isEmpty()) {
                out.putEmpty("nodePlacement");
            } else {
                out.put("nodePlacement", placement);
            }
        }
        if (singleReplica) {
            out.put("replicas", 1);
        }
        return out;
    }

    private static Fields migrations(LiveMigrationConfig lm) {
        return Fields.object()
                .put("bandwidthPerMigration", lm.bandwidthPerMigration)
                .put("completionTimeoutPerGiB", lm.completionTimeoutPerGiB)
                .put("parallelOutboundMigrationsPerNode", lm.parallelOutboundMigrationsPerNode)
                .put("parallelMigrationsPerCluster", lm.parallelMigrationsPerCluster)
                .put("progressTimeout", lm.progressTimeout)
                .put("network", lm.network)
                .put("allowAutoConverge", lm.allowAutoConverge)
                .put("allowPostCopy", lm.allowPostCopy);
    }

    private static Map<String, Object> bindings(HyperConvergedSpec spec) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (spec.networkBinding != null) {
            spec.networkBinding.forEach((name, plugin) -> out.put(name, SpecJson.normalizeValue(plugin)));
        }
        out.put(PRIMARY_UDN_BINDING, Map.of("domainAttachmentType", "managedTap", "migration", Map.of()));
        return out;
    }

    private static Fields permittedHostDevices(PermittedHostDevices devices) {
        if (devices == null) {
            return null;
        }
        return Fields.object()
                .put("pciHostDevices", permitted(devices.pciHostDevices,
                        (d, f) -> f.put("pciVendorSelector", d.pciDeviceSelector)))
                .put("mediatedDevices", permitted(devices.mediatedDevices,
                        (d, f) -> f.put("mdevNameSelector", d.mdevNameSelector)))
                .put("usb", permitted(devices.usbHostDevices, (d, f) -> f.put("selectors",
                        d.selectors == null ? null : d.selectors.stream().map(SpecJson::toMap).toList())));
    }

    /** KubeVirt's entries for the enabled ones (upstream keeps disabled entries in the HyperConverged only). */
    private static <T extends PermittedHostDevices.Entry> List<Object> permitted(List<T> entries,
            java.util.function.BiConsumer<T, Fields> selector) {
        List<Object> out = new ArrayList<>();
        if (entries != null) {
            for (T d : entries) {
                if (!d.disabled) {
                    Fields f = Fields.object();
                    selector.accept(d, f);
                    out.add(f.put("resourceName", d.resourceName)
                            .put("externalResourceProvider", d.externalResourceProvider ? true : null).map());
                }
            }
        }
        return out;
    }

    private static Object mediatedDevices(HyperConvergedSpec spec) {
        MediatedDevicesConfiguration config = spec.mediatedDevicesConfiguration;
        boolean disabled = Boolean.TRUE.equals(spec.featureGates.disableMDevConfiguration);
        if (config == null && !disabled) {
            return null;
        }
        Fields out = Fields.object();
        if (config != null) {
            out.put("mediatedDeviceTypes", MediatedDevicesConfiguration.types(config.mediatedDeviceTypes,
                    config.mediatedDevicesTypes));
            if (config.nodeMediatedDeviceTypes != null) {
                out.put("nodeMediatedDeviceTypes", config.nodeMediatedDeviceTypes.stream().map(n -> Fields.object()
                        .put("nodeSelector", n.nodeSelector)
                        .put("mediatedDeviceTypes", MediatedDevicesConfiguration.types(n.mediatedDeviceTypes,
                                n.mediatedDevicesTypes))
                        .map()).toList());
            }
        }
        if (disabled) {
            out.put("enabled", false);
        }
        // KubeVirt reads an empty configuration as "no mediated devices": written even when empty
        return out.map();
    }

    private static Map<String, Object> obsoleteCpuModels(HyperConvergedSpec spec) {
        Map<String, Object> out = new LinkedHashMap<>();
        ALWAYS_OBSOLETE_CPU_MODELS.forEach(m -> out.put(m, true));
        if (spec.obsoleteCPUs != null && spec.obsoleteCPUs.cpuModels != null) {
            spec.obsoleteCPUs.cpuModels.forEach(m -> out.put(m, true));
        }
        return out;
    }

    private static Map<String, Object> rateLimits(HyperConvergedSpec spec, SpecContext ctx) {
        if (spec.tuningPolicy == null) {
            return null;
        }
        double qps;
        int burst;
        switch (spec.tuningPolicy) {
            case highBurst -> {
                qps = HIGH_BURST_QPS;
                burst = HIGH_BURST_BURST;
            }
            default -> {
                TuningAnnotation values = TuningAnnotation.parse(ctx.annotations().get(TUNING_POLICY_ANNOTATION));
                qps = values.qps();
                burst = values.burst();
            }
        }
        Number q = qps == Math.rint(qps) && qps <= Integer.MAX_VALUE ? (Number) (int) qps : (Number) qps;
        return Map.of("restClient", Map.of("rateLimiter", Map.of("tokenBucketRateLimiter", Map.of("qps", q, "burst", burst))));
    }

    private static Map<String, Object> architectures(Map<String, String> machineTypes) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String arch : List.of("amd64", "arm64", "s390x")) {
            String type = machineTypes.get(arch);
            if (type != null && !type.isBlank()) {
                out.put(arch, Fields.object().put("machineType", type.trim()).put("ovmfPath", OVMF_PATHS.get(arch))
                        .put("emulatedMachines", EMULATED_MACHINES.get(arch)).map());
            }
        }
        return out;
    }
}
