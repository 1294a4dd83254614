package io.kubevirt.hco.snapshot;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.core.ComponentEnablement;
import io.kubevirt.hco.core.ComponentEnablement.Facts;
import io.kubevirt.hco.core.ComponentEnablement.Resolution;
import io.kubevirt.hco.core.ComponentEnablement.Setting;

/**
 * Which components are part of this stack, from their settings ({@code HCO_COMPONENT_*}), their
 * CRDs (as the CRD informers hold them) and the platform. The decision itself is the core's
 * {@link ComponentEnablement}; this gathers its facts.
 */
@ApplicationScoped
public class ComponentInstallation {

    /** The process environment as MicroProfile Config reads it (the component env vars are not hco.* settings). */
    @Inject
    Config config;

    @Inject
    KubernetesClient client;

    /** API groups the platform serves: asked once each, a running operator's platform does not change. */
    private final Map<String, Boolean> apiGroups = new ConcurrentHashMap<>();

    /**
     * @param crd the component's CRD as the cache holds it (null when there is none)
     * @throws InvalidSetting when a setting is not one of enabled, disabled, auto
     * @throws io.fabric8.kubernetes.client.KubernetesClientException when the platform lookup fails (not remembered: asked again next time)
     */
    public Map<ComponentDescriptor, Resolution> resolve(HyperConverged hco,
            Function<ComponentDescriptor, CustomResourceDefinition> crd) {
        Map<ComponentDescriptor, Resolution> out = new LinkedHashMap<>();
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            Setting setting = setting(d);
            boolean platform = d.requiredApiGroup() == null || setting != Setting.AUTO || serves(d.requiredApiGroup());
            Facts facts = new Facts(d.crdName(), served(crd.apply(d), d), platform,
                    d.requiredApiGroup() == null ? null : "the " + d.requiredApiGroup() + " API (OpenShift)",
                    partOfStack(hco, d));
            out.put(d, ComponentEnablement.resolve(d.name(), d.settingEnv(), setting, facts));
        }
        return out;
    }

    /** Every component as part of the stack (the fallback when the settings cannot be read: fail closed). */
    public static Map<ComponentDescriptor, Resolution> allEnabled() {
        Map<ComponentDescriptor, Resolution> out = new LinkedHashMap<>();
        ComponentCatalog.ALL.forEach(d -> out.put(d, new Resolution(ComponentEnablement.State.ENABLED, null)));
        return out;
    }

    /** Each component's setting as the environment gives it: read once, every pass asks. */
    private final Map<String, java.util.Optional<String>> settingValues = new java.util.concurrent.ConcurrentHashMap<>();

    Setting setting(ComponentDescriptor d) {
        try {
            return Setting.parse(d.name(), settingValues.computeIfAbsent(d.name(),
                    n -> config.getOptionalValue(d.settingEnv(), String.class)).orElse(null));
        } catch (IllegalArgumentException e) {
            throw new InvalidSetting(d.settingEnv() + " is invalid (" + e.getMessage()
                    + "): fix the operator's environment; nothing is written to the components until then");
        }
    }

    /** The operator was started with a component setting it cannot read: retrying cannot help, a restart with a fixed value does. */
    public static final class InvalidSetting extends RuntimeException {
        InvalidSetting(String message) {
            super(message);
        }
    }

    /**
     * Exists, is not being deleted, serves the version the operator uses, and is not reported as
     * not established. A CRD whose status has no Established condition yet (the moments after its
     * creation; API servers that never report one) counts as served: the informer registered for it
     * then waits for it, and a failure there closes the gate for that pass only.
     */
    static boolean served(CustomResourceDefinition crd, ComponentDescriptor d) {
        if (crd == null || crd.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        boolean notEstablished = crd.getStatus() != null && crd.getStatus().getConditions() != null
                && crd.getStatus().getConditions().stream()
                        .anyMatch(c -> "Established".equals(c.getType()) && !"True".equals(c.getStatus()));
        return !notEstablished && crd.getSpec().getVersions().stream()
                .anyMatch(v -> d.version().equals(v.getName()) && Boolean.TRUE.equals(v.getServed()));
    }

    private boolean serves(String group) {
        return apiGroups.computeIfAbsent(group, g -> client.getApiGroup(g) != null);
    }

    /** Recorded among the HyperConverged's related objects: it was part of this stack. */
    private static boolean partOfStack(HyperConverged hco, ComponentDescriptor d) {
        return hco != null && hco.getStatus() != null && hco.getStatus().relatedObjects != null
                && hco.getStatus().relatedObjects.stream()
                        .anyMatch(r -> d.kind().equals(r.kind) && r.apiVersion != null
                                && r.apiVersion.startsWith(d.group() + "/"));
    }

    /** The components the status lists as part of the stack: installed ones and those whose CRD went missing. */
    public static java.util.List<ComponentDescriptor> partOfStack(Map<ComponentDescriptor, Resolution> installed) {
        return installed.entrySet().stream()
                .filter(e -> e.getValue().state() != ComponentEnablement.State.NOT_INSTALLED).map(Map.Entry::getKey)
                .toList();
    }
}
