package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Default;
import io.fabric8.kubernetes.api.model.LabelSelector;

/** Application Aware Quota settings: accepted, not yet applied (this operator does not deploy AAQ). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ApplicationAwareConfig {

    public enum VmiCalcConfigName {
        VmiPodUsage, VirtualResources, DedicatedVirtualResources, IgnoreVmiCalculator
    }

    @JsonPropertyDescription("How VMI resources count against ApplicationsResourceQuota.")
    @Default("DedicatedVirtualResources")
    public VmiCalcConfigName vmiCalcConfigName;

    @JsonPropertyDescription("Namespaces whose pods get AAQ's scheduling gate.")
    public LabelSelector namespaceSelector;

    @JsonPropertyDescription("Allow ClusterAppsResourceQuota.")
    @Default("false")
    public Boolean allowApplicationAwareClusterResourceQuota;
}
