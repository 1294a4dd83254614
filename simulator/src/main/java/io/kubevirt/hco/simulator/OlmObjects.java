package io.kubevirt.hco.simulator;

import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/** What OLM would create and read, for stacks without OLM (dev mode, the demo, tests). */
public final class OlmObjects {

    public static final ResourceDefinitionContext OPERATOR_CONDITION = new ResourceDefinitionContext.Builder()
            .withGroup("operators.coreos.com").withVersion("v2").withKind("OperatorCondition")
            .withPlural("operatorconditions").withNamespaced(true).build();

    private OlmObjects() {
    }

    /** What OLM creates for the installed CSV before the operator starts: an empty OperatorCondition. */
    public static void createOperatorCondition(KubernetesClient client, String namespace, String name) {
        GenericKubernetesResource oc = new GenericKubernetesResource();
        oc.setApiVersion("operators.coreos.com/v2");
        oc.setKind("OperatorCondition");
        oc.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        oc.getAdditionalProperties().put("spec", Map.of());
        client.genericKubernetesResources(OPERATOR_CONDITION).inNamespace(namespace).resource(oc)
                .createOr(existing -> existing.update());
    }

    /** The Upgradeable condition in {@code part} ("spec", or "status" where OLM copies it); null when none. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> upgradeableOf(GenericKubernetesResource oc, String part) {
        if (oc == null || !(oc.getAdditionalProperties().get(part) instanceof Map<?, ?> spec)
                || !(spec.get("conditions") instanceof List<?> conditions)) {
            return null;
        }
        return conditions.stream().filter(c -> c instanceof Map<?, ?> m && "Upgradeable".equals(m.get("type")))
                .map(c -> (Map<String, Object>) c).findFirst().orElse(null);
    }
}
