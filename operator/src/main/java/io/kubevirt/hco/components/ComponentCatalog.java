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

    public static final ComponentDescriptor KUBEVIRT = new ComponentDescriptor("KubeVirt", "kubevirt.io", "v1",
            "KubeVirt", "kubevirts", "kubevirt-kubevirt-hyperconverged", true, true, "KUBEVIRT_VERSION",
            "observedKubeVirtVersion", "targetKubeVirtVersion", null, ObservationEvidence.OBSERVED_GENERATION,
            KubeVirtSpec::of, "HCO_COMPONENT_KUBEVIRT", null,
            "kubevirt.kubevirt.io/jsonpatch", List.of("imageTag", "imageRegistry"), KubeVirtSpec::annotations);

    public static final ComponentDescriptor CDI = new ComponentDescriptor("CDI", "cdi.kubevirt.io", "v1beta1", "CDI",
            "cdis", "cdi-kubevirt-hyperconverged", false, false, "CDI_VERSION", "observedVersion", "targetVersion",
            null, ObservationEvidence.STATUS_WRITTEN_AFTER_SPEC, CdiSpec::of, "HCO_COMPONENT_CDI", null,
            "containerizeddataimporter.kubevirt.io/jsonpatch", List.of(), CdiSpec::annotations);

    public static final ComponentDescriptor NETWORK_ADDONS = new ComponentDescriptor("NetworkAddonsConfig",
            "networkaddonsoperator.network.kubevirt.io", "v1", "NetworkAddonsConfig", "networkaddonsconfigs", "cluster",
            false, true, "NETWORK_ADDONS_VERSION", "observedVersion", "targetVersion", null,
            ObservationEvidence.STATUS_WRITTEN_AFTER_SPEC, NetworkAddonsSpec::of, "HCO_COMPONENT_NETWORK_ADDONS", null,
            "networkaddonsconfigs.kubevirt.io/jsonpatch", List.of(), null);

    public static final ComponentDescriptor SSP = new ComponentDescriptor("SSP", "ssp.kubevirt.io", "v1beta3", "SSP",
            "ssps", "ssp-kubevirt-hyperconverged", true, true, "SSP_VERSION", "observedVersion", "targetVersion",
            "paused", ObservationEvidence.OBSERVED_GENERATION, SspSpec::of, "HCO_COMPONENT_SSP", "template.openshift.io",
            "ssp.kubevirt.io/jsonpatch", List.of(), null);

    public static final List<ComponentDescriptor> ALL = List.of(KUBEVIRT, CDI, NETWORK_ADDONS, SSP);

    private ComponentCatalog() {
    }
}
