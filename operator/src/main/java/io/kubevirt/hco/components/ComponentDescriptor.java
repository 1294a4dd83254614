package io.kubevirt.hco.components;

import java.util.Map;
import java.util.function.BiFunction;

import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;
import io.kubevirt.hco.core.ObservationEvidence;

/**
 * Everything the operator knows about one component, as data: where its CR lives, how to read its
 * status, what proves it saw the spec, which env var names its expected version, and how its spec
 * follows from the HyperConverged spec. Adding a component is adding one of these.
 *
 * @param observedVersionField status field holding the version the component runs
 * @param targetVersionField status field holding the version it is moving to; null if it reports none
 * @param pausedField status field that, when true, means the component stopped reconciling; null if none
 * @param statusSubresource whether the CRD has a status subresource (without one, the component
 *        writes status with whole-object updates, and each moves metadata.generation)
 * @param settingEnv the env var that enables, disables or auto-detects the component
 *        (enabled, disabled, auto; enabled when unset)
 * @param requiredApiGroup an API group the component needs beyond its CRD, for auto-detection
 *        (SSP: OpenShift's template.openshift.io); null when none
 */
public record ComponentDescriptor(String name, String group, String version, String kind, String plural,
        String crName, boolean namespaced, boolean statusSubresource, String versionEnv, String observedVersionField, String targetVersionField,
        String pausedField, ObservationEvidence evidence,
        BiFunction<HyperConvergedSpec, SpecContext, Map<String, Object>> specFunction, String settingEnv,
        String requiredApiGroup) {

    public String apiVersion() {
        return group + "/" + version;
    }

    public String crdName() {
        return plural + "." + group;
    }

    public Map<String, Object> desiredSpec(HyperConvergedSpec spec, SpecContext context) {
        return specFunction.apply(SpecDefaults.completed(spec), context);
    }

    /** Facts from the environment that specs depend on. */
    public record SpecContext(String operatorNamespace) {
    }
}
