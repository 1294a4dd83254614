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
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.Messages;

/**
 * Writes {@code spec.conditions[type=Upgradeable]} of OLM's OperatorCondition, and nothing else:
 * {@code spec.overrides} and any other condition are kept as they are. Every write is a JSON Patch
 * that first tests what it expects to find, so a concurrent edit (an administrator's, another
 * replica's) is never overwritten: the test fails, and the writer re-reads and decides again.
 * <p>
 * A change of decision is one request: the patch tests {@code spec.conditions} against what this
 * process last wrote or read there. It does not test the resourceVersion, which OLM moves each time
 * it copies the conditions to the status. (The bench measured the read that used to precede every
 * write as the largest part of the gate's reaction time beyond the API server's own round trip.)
 * An unchanged decision costs no request when the informer's copy of the OperatorCondition says
 * exactly it, or is older than the answer to this process's last write (its watch event is still on
 * its way); otherwise (someone edited the object, or there is no copy) the live object is read and
 * corrected. A stray edit reaches that copy as a watch event, and the event wakes the reconciler
 * (StackInformers), so it is found and corrected on the next evaluation either way. (Before, every
 * unchanged decision read the live object: one GET per pass.) Without OPERATOR_CONDITION_NAME it
 * does nothing.
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

    /** {@code spec.conditions} as this process last wrote or read them; null when not known. */
    private List<Object> known;
    /** The resourceVersion of the object {@link #known} was taken from (the answer to our write, or the read). */
    private String knownResourceVersion;
    /** The Upgradeable condition this process last wrote or found in place; null before the first. */
    private volatile Map<?, ?> lastUpgradeable;
    /** The Upgradeable condition of a write in flight; null when none. */
    private volatile Map<?, ?> beingWritten;
    /** The informer's copy of the object (null: not watched yet, or not there). */
    private volatile java.util.function.Supplier<GenericKubernetesResource> cachedCopy = () -> null;

    /** Where the informer's copy of the OperatorCondition is read from (StackInformers, once it watches it). */
    public void readCachedCopyFrom(java.util.function.Supplier<GenericKubernetesResource> copy) {
        this.cachedCopy = copy;
    }

    public boolean enabled() {
        return settings.operatorConditionName().filter(n -> !n.isBlank()).isPresent();
    }

    public Optional<String> name() {
        return settings.operatorConditionName().filter(n -> !n.isBlank());
    }

    /**
     * Whether this OperatorCondition carries the Upgradeable condition this process last wrote (or
     * found already there): then an event about it (our own write, OLM copying it to the status)
     * needs no new decision. Anything else — deleted, recreated empty, edited — does.
     */
    public boolean saysWhatWasWritten(GenericKubernetesResource oc) {
        // the watch event of a write can arrive before the write's answer is processed: the
        // condition being written counts as written (bench: each such event woke the reconciler
        // and the absent-stack check, one pass and one GET per OperatorCondition write)
        return says(oc, lastUpgradeable) || says(oc, beingWritten);
    }

    /**
     * Whether OLM's OperatorCondition, as its informer last delivered it, still carries what this
     * process wrote: false once someone deleted it, recreated it empty or edited it (and before the
     * informer has a copy); true without an OperatorCondition (no OLM).
     */
    public boolean watchedCopySaysWhatWasWritten() {
        if (!enabled()) {
            return true;
        }
        GenericKubernetesResource oc = cachedCopy.get();
        return oc != null && saysWhatWasWritten(oc);
    }

    private static boolean says(GenericKubernetesResource oc, Map<?, ?> written) {
        if (written == null) {
            return false;
        }
        for (Object c : conditionsOf(oc)) {
            if (c instanceof Map<?, ?> m && io.kubevirt.hco.core.ConditionTypes.UPGRADEABLE.equals(m.get("type"))) {
                return java.util.Objects.equals(m.get("status"), written.get("status"))
                        && java.util.Objects.equals(m.get("reason"), written.get("reason"))
                        && java.util.Objects.equals(m.get("message"), written.get("message"));
            }
        }
        return false;
    }

    private void remember(GenericKubernetesResource oc) {
        known = conditionsOf(oc);
        knownResourceVersion = oc == null || oc.getMetadata() == null ? null : oc.getMetadata().getResourceVersion();
        for (Object c : known) {
            if (c instanceof Map<?, ?> m && io.kubevirt.hco.core.ConditionTypes.UPGRADEABLE.equals(m.get("type"))) {
                lastUpgradeable = m;
            }
        }
    }

    /**
     * @return true when the object now carries exactly this condition (written or already there)
     * @throws KubernetesClientException when the object is missing or cannot be written
     */
    public synchronized boolean write(boolean upgradeable, String reason, String message) {
        if (!enabled()) {
            return true;
        }
        String bounded = Messages.bounded(message);
        try {
            return writeBounded(upgradeable, reason, bounded);
        } catch (KubernetesClientException e) {
            if (upgradeable || e.getCode() != 422) {
                throw e;
            }
            // a False must land: if the API server refuses this one (validation of the message, of
            // a condition someone else put there...), it gets a short fixed message instead
            LOG.warnf("OperatorCondition %s refused Upgradeable=False (%s); writing it with a short message",
                    name().orElseThrow(), e.getMessage());
            known = null;
            return writeBounded(false, reason, FALLBACK_MESSAGE);
        }
    }

    static final String FALLBACK_MESSAGE = "the upgrade gate is closed; see the HyperConverged status for why";

    private boolean writeBounded(boolean upgradeable, String reason, String message) {
        if (known != null) {
            List<Object> desired = withUpgradeable(known, upgradeable, reason, message);
            if (desired == null && cachedAgrees(upgradeable, reason, message)) {
                return true;
            }
            if (desired != null) {
                List<Object> expected = known;
                known = null;
                try {
                    remember(patch(List.of(op("test", "/spec/conditions", expected),
                            op("replace", "/spec/conditions", desired))));
                    return true;
                } catch (KubernetesClientException e) {
                    if (!changedUnderUs(e)) {
                        throw e;
                    }
                    LOG.debugf("OperatorCondition %s: conditions changed under us; re-reading", name().orElseThrow());
                }
            }
        }
        return writeAfterReading(upgradeable, reason, message);
    }

    /** Reads the live object and patches it if it differs, tested against the resourceVersion read. */
    private boolean writeAfterReading(boolean upgradeable, String reason, String message) {
        String name = name().orElseThrow();
        KubernetesClientException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            known = null;
            GenericKubernetesResource current = resource().get();
            if (current == null) {
                throw new KubernetesClientException("OperatorCondition " + settings.namespace() + "/" + name
                        + " does not exist: OLM creates it for the installed CSV (check OPERATOR_CONDITION_NAME)");
            }
            List<Object> read = conditionsOf(current);
            List<Object> desired = withUpgradeable(read, upgradeable, reason, message);
            if (desired == null) {
                remember(current);
                return true;
            }
            boolean hasSpec = current.getAdditionalProperties().get("spec") instanceof Map;
            try {
                remember(patch(List.of(
                        op("test", "/metadata/resourceVersion", current.getMetadata().getResourceVersion()),
                        hasSpec ? op("add", "/spec/conditions", desired)
                                : op("add", "/spec", Map.of("conditions", desired)))));
                return true;
            } catch (KubernetesClientException e) {
                if (!changedUnderUs(e)) {
                    throw e;
                }
                last = e;
                LOG.debugf("OperatorCondition %s changed under us (attempt %d); re-reading", name, attempt);
            }
        }
        throw last;
    }

    /**
     * Whether the informer's copy confirms what {@link #known} says: it says the same, or it is older
     * than the object {@code known} came from (the watch event of our own write, a millisecond ago, is
     * still on its way: a pass that follows a closing published from a component's event finds the
     * copy there). A copy at or past that revision that says something else was edited: the live
     * object is read and corrected. No copy (not watched yet, or deleted): read.
     */
    private boolean cachedAgrees(boolean upgradeable, String reason, String message) {
        GenericKubernetesResource copy = cached();
        if (copy == null) {
            return false;
        }
        if (withUpgradeable(conditionsOf(copy), upgradeable, reason, message) == null) {
            return true;
        }
        String copyVersion = copy.getMetadata() == null ? null : copy.getMetadata().getResourceVersion();
        return knownResourceVersion != null && copyVersion != null
                && !io.kubevirt.hco.core.ResourceVersions.atOrAfter(copyVersion, knownResourceVersion);
    }

    /** The informer's copy; null when there is none to read (not started yet: the live object is read instead). */
    private GenericKubernetesResource cached() {
        try {
            return cachedCopy.get();
        } catch (RuntimeException notStarted) {
            return null;
        }
    }

    private io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource> resource() {
        return client.genericKubernetesResources(DEFINITION).inNamespace(settings.namespace())
                .withName(name().orElseThrow());
    }

    private GenericKubernetesResource patch(List<Map<String, Object>> operations) {
        beingWritten = upgradeableIn(operations);
        try {
            return send(operations);
        } finally {
            beingWritten = null;
        }
    }

    /** The Upgradeable condition a patch sets; null when it sets none. */
    static Map<?, ?> upgradeableIn(List<Map<String, Object>> operations) {
        for (Map<String, Object> op : operations) {
            Object value = op.get("value");
            Object conditions = value instanceof Map<?, ?> spec && !"test".equals(op.get("op")) ? spec.get("conditions")
                    : "test".equals(op.get("op")) ? null : value;
            if (conditions instanceof List<?> list) {
                for (Object c : list) {
                    if (c instanceof Map<?, ?> m && io.kubevirt.hco.core.ConditionTypes.UPGRADEABLE.equals(m.get("type"))) {
                        return m;
                    }
                }
            }
        }
        return null;
    }

    private GenericKubernetesResource send(List<Map<String, Object>> operations) {
        // on a named handle the client would GET the object first; given one, it only takes its
        // name from it, so the patch is the one request
        GenericKubernetesResource target = new GenericKubernetesResource();
        target.setApiVersion(API_VERSION);
        target.setKind(KIND);
        target.setMetadata(new ObjectMetaBuilder().withName(name().orElseThrow()).withNamespace(settings.namespace())
                .build());
        return client.genericKubernetesResources(DEFINITION).inNamespace(settings.namespace()).resource(target)
                .patch(PatchContext.of(PatchType.JSON), client.getKubernetesSerialization().asJson(operations));
    }

    /**
     * A failed test of a JSON Patch is a 422 from the API server; 409 if it raced another write. A
     * 422 can also be a schema refusal: then the bounded re-reads end by throwing it, and the caller
     * logs it, counts it and tries again after the write-retry interval (no tight loop).
     */
    private static boolean changedUnderUs(KubernetesClientException e) {
        return e.getCode() == 409 || e.getCode() == 422;
    }

    static Map<String, Object> op(String op, String path, Object value) {
        Map<String, Object> operation = new LinkedHashMap<>();
        operation.put("op", op);
        operation.put("path", path);
        operation.put("value", value);
        return operation;
    }

    @SuppressWarnings("unchecked")
    static List<Object> conditionsOf(GenericKubernetesResource oc) {
        if (oc != null && oc.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
                && spec.get("conditions") instanceof List<?> conditions) {
            return java.util.Collections.unmodifiableList(new ArrayList<>((List<Object>) conditions));
        }
        return List.of();
    }

    /**
     * {@code conditions} with the Upgradeable condition set (kept in place, or appended); null when
     * they already say exactly this. The transition time moves only when the status changes.
     */
    static List<Object> withUpgradeable(List<Object> conditions, boolean upgradeable, String reason,
            String message) {
        List<Object> result = new ArrayList<>(conditions);
        String status = upgradeable ? "True" : "False";
        String transition = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        int index = -1;
        for (int i = 0; i < result.size(); i++) {
            if (result.get(i) instanceof Map<?, ?> c && io.kubevirt.hco.core.ConditionTypes.UPGRADEABLE.equals(c.get("type"))) {
                index = i;
                if (status.equals(c.get("status")) && reason.equals(c.get("reason")) && message.equals(c.get("message"))) {
                    return null;
                }
                if (status.equals(c.get("status")) && c.get("lastTransitionTime") instanceof String t) {
                    transition = t;
                }
            }
        }
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", io.kubevirt.hco.core.ConditionTypes.UPGRADEABLE);
        condition.put("status", status);
        condition.put("reason", reason);
        condition.put("message", message);
        condition.put("lastTransitionTime", transition);
        if (index >= 0) {
            result.set(index, condition);
        } else {
            result.add(condition);
        }
        return result;
    }
}
