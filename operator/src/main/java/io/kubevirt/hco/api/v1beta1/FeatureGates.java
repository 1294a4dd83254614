package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Default;

/** Feature gates the user may switch; each maps onto the component gates it concerns (see ComponentSpecs). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FeatureGates {

    @JsonPropertyDescription("Expose a limited set of host metrics to guests (KubeVirt DownwardMetrics).")
    @Default("false")
    public Boolean downwardMetrics = false;

    @JsonPropertyDescription("SCSI persistent reservation for shared LUNs (KubeVirt PersistentReservation).")
    @Default("false")
    public Boolean persistentReservation = false;

    @JsonPropertyDescription("Align guest vCPUs to physical cores (KubeVirt AlignCPUs).")
    @Default("false")
    public Boolean alignCPUs = false;

    @JsonPropertyDescription("Import boot images for every architecture (CDI and SSP multi-arch boot images).")
    @Default("false")
    public Boolean enableMultiArchBootImageImport = false;
}
