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
 * @param jsonPatchAnnotation the HyperConverged annotation whose JSON patch is applied to this
 *        component's derived spec (upstream's names)
 * @param gateSpecFields top-level spec fields a JSON patch may not touch: they decide which version
 *        the component runs, which the gate compares with the expected one
 * @param annotationsFunction the annotations the component reads from its CR besides the spec, as
 *        upstream sets them, from the desired spec (CDI's config authority, KubeVirt's AlignCPUs)
 * @param renderedPaths for a component proven by a status written after our spec write: the spec
 *        fields (dotted paths) its status-writing operator renders into its operands, read in its
 *        sources; a change elsewhere makes it write nothing (see {@link RenderedSpec}). Null: all of them
 */
public record ComponentDescriptor(String name, String group, String version, String kind, String plural,
        String crName, boolean namespaced, boolean statusSubresource, String versionEnv, String observedVersionField, String targetVersionField,
        String pausedField, ObservationEvidence evidence,
        BiFunction<HyperConvergedSpec, SpecContext, Map<String, Object>> specFunction, String settingEnv,
        String requiredApiGroup, String jsonPatchAnnotation, java.util.List<String> gateSpecFields,
        java.util.function.Function<Map<String, Object>, Map<String, String>> annotationsFunction,
        java.util.List<String> renderedPaths) {

    /** The part of a desired spec this component's status follows (the whole spec unless {@code renderedPaths} says otherwise). */
    public Map<String, Object> renderedSpec(Map<String, Object> desiredSpec) {
        return RenderedSpec.of(desiredSpec, renderedPaths);
    }

    /** The annotations this operator sets on the component's CR for a desired spec (empty when none). */
    public Map<String, String> annotations(Map<String, Object> desiredSpec) {
        return annotationsFunction == null ? Map.of() : annotationsFunction.apply(desiredSpec);
    }

    public String apiVersion() {
        return group + "/" + version;
    }

    public String crdName() {
        return plural + "." + group;
    }

    /** The spec this component's CR should have: derived from the HyperConverged, then the user's JSON patch, if any. */
    public Map<String, Object> desiredSpec(HyperConvergedSpec spec, SpecContext context) {
        return JsonPatches.apply(this, specFunction.apply(SpecDefaults.completed(spec), context), context.annotations());
    }
}
