package io.kubevirt.hco.api.v1;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.kubevirt.hco.api.v1beta1.ApplicationAwareConfig;
import io.kubevirt.hco.api.v1beta1.LogVerbosityConfig;
import io.kubevirt.hco.api.v1beta1.NodePlacement;
import io.kubevirt.hco.api.v1beta1.UninstallStrategy;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class Deployment {

    public NodePlacements nodePlacements;
    public UninstallStrategy uninstallStrategy;
    public LogVerbosityConfig logVerbosityConfig;
    public ApplicationAware applicationAwareConfig;
    public Boolean deployVmConsoleProxy;
    /** New in v1 (no v1beta1 field): kept through v1beta1 storage in an annotation. */
    public Boolean deployNetworkResourcesInjector;

    /** v1beta1's spec.infra.nodePlacement and spec.workloads.nodePlacement. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class NodePlacements {
        public NodePlacement infra;
        public NodePlacement workload;
    }

    /** v1beta1's applicationAwareConfig, plus enable (v1beta1's spec.enableApplicationAwareQuota). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class ApplicationAware extends ApplicationAwareConfig {
        public Boolean enable;
    }
}
