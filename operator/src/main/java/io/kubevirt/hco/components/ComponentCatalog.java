package io.kubevirt.hco.components;

import java.util.List;

import io.kubevirt.hco.core.ObservationEvidence;

/**
 * The four components of the hyperconverged stack. Field names, scope and the status subresource
 * follow each component's published CRD (CDI has none: its operator writes status with
 * whole-object updates). Components without {@code status.observedGeneration} prove they saw a
 * spec by writing their status after it. SSP needs OpenShift's templates API: with
 * {@code HCO_COMPONENT_SSP=auto} it is part of the stack only where that API is served (upstream
 * deploys it only on OpenShift).
 */
public final class ComponentCatalog {

    /**
     * What cdi-operator (v1.59.0, pkg/operator/controller/cr-manager.go getNamespacedArgs) renders
     * into its Deployments: the pull policy, the priority class, the infra placement and replicas,
     * the log verbosity and the pull secrets. The rest of the CDI spec is read by cdi-controller
     * (spec.config, copied into the CDIConfig; spec.workload, for importer pods), by the certificate
     * manager (spec.certConfig) or on deletion (spec.uninstallStrategy): changing it rolls nothing,
     * and the CDI controller-lifecycle SDK writes the CR only when a condition's value changes.
     */
    static final List<String> CDI_OPERATOR_RENDERS = List.of("imagePullPolicy", "priorityClass", "infra",
            "config.logVerbosity", "config.imagePullSecrets");

    public static final ComponentDescriptor KUBEVIRT = new ComponentDescriptor("KubeVirt", "kubevirt.io", "v1",
            "KubeVirt", "kubevirts", "kubevirt-kubevirt-hyperconverged", true, true, "KUBEVIRT_VERSION",
            "observedKubeVirtVersion", "targetKubeVirtVersion", null, ObservationEvidence.OBSERVED_GENERATION,
            KubeVirtSpec::of, "HCO_COMPONENT_KUBEVIRT", null,
            "kubevirt.kubevirt.io/jsonpatch", List.of("imageTag", "imageRegistry"), KubeVirtSpec::annotations, null);

    public static final ComponentDescriptor CDI = new ComponentDescriptor("CDI", "cdi.kubevirt.io", "v1beta1", "CDI",
            "cdis", "cdi-kubevirt-hyperconverged", false, false, "CDI_VERSION", "observedVersion", "targetVersion",
            null, ObservationEvidence.STATUS_WRITTEN_AFTER_SPEC, CdiSpec::of, "HCO_COMPONENT_CDI", null,
            "containerizeddataimporter.kubevirt.io/jsonpatch", List.of(), CdiSpec::annotations, CDI_OPERATOR_RENDERS);

    public static final ComponentDescriptor NETWORK_ADDONS = new ComponentDescriptor("NetworkAddonsConfig",
            "networkaddonsoperator.network.kubevirt.io", "v1", "NetworkAddonsConfig", "networkaddonsconfigs", "cluster",
            false, true, "NETWORK_ADDONS_VERSION", "observedVersion", "targetVersion", null,
            ObservationEvidence.STATUS_WRITTEN_AFTER_SPEC, NetworkAddonsSpec::of, "HCO_COMPONENT_NETWORK_ADDONS", null,
            "networkaddonsconfigs.kubevirt.io/jsonpatch", List.of(), null, null);

    public static final ComponentDescriptor SSP = new ComponentDescriptor("SSP", "ssp.kubevirt.io", "v1beta3", "SSP",
            "ssps", "ssp-kubevirt-hyperconverged", true, true, "SSP_VERSION", "observedVersion", "targetVersion",
            "paused", ObservationEvidence.OBSERVED_GENERATION, SspSpec::of, "HCO_COMPONENT_SSP", "template.openshift.io",
            "ssp.kubevirt.io/jsonpatch", List.of(), null, null);

    public static final List<ComponentDescriptor> ALL = List.of(KUBEVIRT, CDI, NETWORK_ADDONS, SSP);

    private ComponentCatalog() {
    }
}
