package io.kubevirt.hco.components;

import java.util.List;

import io.kubevirt.hco.core.ObservationEvidence;

/** The four components of the hyperconverged stack. Status field names follow each CRD's published schema. */
public final class ComponentCatalog {

    public static final ComponentDescriptor KUBEVIRT = new ComponentDescriptor("KubeVirt", "kubevirt.io", "v1",
            "KubeVirt", "kubevirts", "kubevirt-kubevirt-hyperconverged", true, "KUBEVIRT_VERSION",
            "observedKubeVirtVersion", "targetKubeVirtVersion", null, ObservationEvidence.OBSERVED_GENERATION,
            ComponentSpecs::kubevirt);

    public static final ComponentDescriptor CDI = new ComponentDescriptor("CDI", "cdi.kubevirt.io", "v1beta1", "CDI",
            "cdis", "cdi-kubevirt-hyperconverged", false, "CDI_VERSION", "observedVersion", "targetVersion", null,
            ObservationEvidence.HEARTBEAT_AFTER_SPEC_WRITE, ComponentSpecs::cdi);

    public static final ComponentDescriptor NETWORK_ADDONS = new ComponentDescriptor("NetworkAddonsConfig",
            "networkaddonsoperator.network.kubevirt.io", "v1", "NetworkAddonsConfig", "networkaddonsconfigs", "cluster",
            false, "NETWORK_ADDONS_VERSION", "observedVersion", "targetVersion", null,
            ObservationEvidence.HEARTBEAT_AFTER_SPEC_WRITE, ComponentSpecs::networkAddons);

    public static final ComponentDescriptor SSP = new ComponentDescriptor("SSP", "ssp.kubevirt.io", "v1beta3", "SSP",
            "ssps", "ssp-kubevirt-hyperconverged", true, "SSP_VERSION", "observedVersion", "targetVersion", "paused",
            ObservationEvidence.OBSERVED_GENERATION, ComponentSpecs::ssp);

    public static final List<ComponentDescriptor> ALL = List.of(KUBEVIRT, CDI, NETWORK_ADDONS, SSP);

    private ComponentCatalog() {
    }
}
