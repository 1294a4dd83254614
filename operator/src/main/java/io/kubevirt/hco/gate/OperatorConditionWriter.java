package io.kubevirt.hco.gate;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kubevirt.hco.config.OperatorSettings;

/**
 * Writes {@code spec.conditions[type=Upgradeable]} of OLM's OperatorCondition, and nothing else:
 * {@code spec.overrides} and any other condition are carried over as read. Plain update with the
 * read resourceVersion, so a concurrent edit (an administrator's override) is never overwritten:
 * on conflict it re-reads and tries again. Without OPERATOR_CONDITION_NAME it does nothing.
 */
@ApplicationScoped
public class OperatorConditionWriter {

    private static final Logger LOG = Logger.getLogger(OperatorConditionWriter.class);
    public static final String API_VERSION = "operators.coreos.com/v2";
    public static final String KIND = "OperatorCondition";
    static final int ATTEMPTS = 3;
    /** Given in full so that no discovery is needed (OLM's CRD may be registered after we start). */
    public static final ResourceDefinitionContext DEFINITION = new ResourceDefinitionContext.Builder()
            .withGroup("operators.coreos.com").withVersion("v2").withKind(KIND).withPlural("operatorconditions")
            .withNamespaced(true).build();

    @Inject
    KubernetesClient client;

    @Inject
    OperatorSettings settings;

    public boolean enabled() {
        return settings.operatorConditionName().filter(n -> !n.isBlank()).isPresent();
    }

    public Optional<String> name() {
        return settings.operatorConditionName().filter(n -> !n.isBlank());
    }

    /**
     * @return true when the object now carries exactly this condition (written or already there)
     * @throws KubernetesClientException when the object is missing or cannot be written
     */
    public boolean write(boolean upgradeable, String reason, String message) {
        if (!enabled()) {
            return true;
        }
        String name = name().orElseThrow();
        KubernetesClientException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            var handle = client.genericKubernetesResources(DEFINITION).inNamespace(settings.namespace())
                    .withName(name);
            GenericKubernetesResource current = handle.get();
            if (current == null) {
                throw new KubernetesClientException("OperatorCondition " + settings.namespace() + "/" + name
                        + " does not exist: OLM creates it for the installed CSV (check OPERATOR_CONDITION_NAME)");
            }
            if (!withUpgradeable(current, upgradeable, reason, message)) {
                return true;
            }
            try {
                client.genericKubernetesResources(DEFINITION).inNamespace(settings.namespace())
                        .resource(current).update();
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                last = e;
                LOG.debugf("OperatorCondition %s changed under us (attempt %d); re-reading", name, attempt);
            }
        }
        throw last;
    }

    /** Sets the Upgradeable condition on {@code oc} in place; returns whether anything changed. */
    @SuppressWarnings("unchecked")
    static boolean withUpgradeable(GenericKubernetesResource oc, boolean upgradeable, String reason, String message) {
        Map<String, Object> props = oc.getAdditionalProperties();
        Object specRaw = props.get("spec");
        Map<String, Object> spec = specRaw instanceof Map<?, ?> m ? (Map<String, Object>) m : new LinkedHashMap<>();
        Object conditionsRaw = spec.get("conditions");
        List<Object> conditions = conditionsRaw instanceof List<?> l ? new ArrayList<>(l) : new ArrayList<>();
        String status = upgradeable ? "True" : "False";
        String transition = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        int index = -1;
        for (int i = 0; i < conditions.size(); i++) {
            if (conditions.get(i) instanceof Map<?, ?> c && "Upgradeable".equals(c.get("type"))) {
                index = i;
                if (status.equals(c.get("status")) && reason.equals(c.get("reason")) && message.equals(c.get("message"))) {
                    return false;
                }
                if (status.equals(c.get("status")) && c.get("lastTransitionTime") instanceof String t) {
                    transition = t;
                }
            }
        }
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", "Upgradeable");
        condition.put("status", status);
        condition.put("reason", reason);
        condition.put("message", message);
        condition.put("lastTransitionTime", transition);
        if (index >= 0) {
            conditions.set(index, condition);
        } else {
            conditions.add(condition);
        }
        spec.put("conditions", conditions);
        props.put("spec", spec);
        return true;
    }
}
