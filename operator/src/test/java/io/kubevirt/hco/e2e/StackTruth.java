package io.kubevirt.hco.e2e;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;

/**
 * The ground truth when the component operators run out of process (as pods): what their CRs'
 * statuses say. Healthy at a version = available, settled, not degraded, reporting that version,
 * for the CR's current generation where the component reports one.
 */
public final class StackTruth {

    private StackTruth() {
    }

    public static boolean allHealthyAt(KubernetesClient admin, String namespace, String version) {
        return ComponentCatalog.ALL.stream().allMatch(d -> healthyAt(admin, namespace, d, version));
    }

    public static boolean healthyAt(KubernetesClient admin, String namespace, ComponentDescriptor d, String version) {
        return healthy(d, ComponentResources.managed(admin, d, namespace).get(), version);
    }

    /** Whether {@code cr} (as read at some revision) shows its component healthy at {@code version}. */
    @SuppressWarnings("unchecked")
    public static boolean healthy(ComponentDescriptor d, GenericKubernetesResource cr, String version) {
        if (cr == null || !(cr.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
                || !version.equals(status.get(d.observedVersionField()))
                || !(status.get("conditions") instanceof List<?> conditions)) {
            return false;
        }
        Map<String, String> byType = new HashMap<>();
        for (Object c : conditions) {
            Map<String, Object> m = (Map<String, Object>) c;
            byType.put((String) m.get("type"), (String) m.get("status"));
        }
        boolean observed = !(status.get("observedGeneration") instanceof Number g)
                || g.longValue() == cr.getMetadata().getGeneration();
        return observed && "True".equals(byType.get("Available")) && "False".equals(byType.get("Progressing"))
                && "False".equals(byType.get("Degraded"));
    }
}
