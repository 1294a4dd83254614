package io.kubevirt.hco.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.gate.OperatorConditionWriter;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentSimulator;
import io.kubevirt.hco.support.ChangeHandler;

/**
 * Plays OLM's part, independently of the operator's code: creates the OperatorCondition for a CSV,
 * copies {@code spec.conditions} to {@code status.conditions} stamped with observedGeneration (as
 * OLM's operatorcondition controller does), and reads upgradeability with OLM's rules (override
 * first; no condition means upgradeable; a stale observedGeneration blocks). Every revision it sees
 * is audited against the simulator's ground truth: Upgradeable=True while any component has not
 * converged at the expected version is a violation.
 */
public final class OlmStandIn implements AutoCloseable {

    private final KubernetesClient admin;
    private final String namespace;
    private final ComponentSimulator truth;
    private final List<String> revisions = new CopyOnWriteArrayList<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();
    private final Map<String, String> lastRevision = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, String> expectedVersionByCondition = new java.util.concurrent.ConcurrentHashMap<>();
    /** Components that are not part of the stack in this scenario (disabled, not installed): nothing to converge. */
    private final java.util.Set<String> notInStack = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public OlmStandIn(KubernetesClient admin, String namespace, ComponentSimulator truth) {
        this.admin = admin;
        this.namespace = namespace;
        this.truth = truth;
    }

    /** {@code component} is not part of the stack from now on: an open gate owes nothing about it. */
    public OlmStandIn withoutComponent(String component) {
        notInStack.add(component);
        return this;
    }

    /** What OLM does when it installs a CSV: an empty OperatorCondition named after it, watched from now on. */
    public void installCsv(String version) {
        String name = OperatorProcess.operatorConditionName(version);
        resources().resource(empty(name)).create();
        expectedVersionByCondition.put(name, version);
        // an informer, not a bare watch: it re-lists and re-watches across API server outages
        informers.add(resources().withName(name).inform(ChangeHandler.<GenericKubernetesResource> of(this::observe,
                gone -> {
                })));
    }

    private void observe(GenericKubernetesResource oc) {
        Map<String, Object> upgradeable = condition(oc, "spec");
        String name = oc.getMetadata().getName();
        if (upgradeable != null) {
            String revision = name + " gen " + oc.getMetadata().getGeneration() + ": " + upgradeable.get("status") + "/"
                    + upgradeable.get("reason");
            boolean fresh = !revision.equals(lastRevision.put(name, revision));
            // judge each written revision once, when it first arrives; later events for the same
            // revision (someone else's metadata edits) are not new claims by the operator
            if (fresh) {
                if ("True".equals(upgradeable.get("status")) && "NoStackInstalled".equals(upgradeable.get("reason"))) {
                    // nothing installed is true only while there is nothing: no HyperConverged, no component CR
                    List<String> present = ComponentCatalog.ALL.stream()
                            .filter(d -> ComponentResources.managed(admin, d, namespace).get() != null)
                            .map(d -> d.name()).toList();
                    if (!present.isEmpty() || admin.resources(HyperConverged.class).inNamespace(namespace)
                            .withName(HyperConverged.SINGLETON_NAME).get() != null) {
                        violations.add(revision + " while the stack exists: " + present);
                    }
                } else if ("True".equals(upgradeable.get("status"))) {
                    String expected = expectedVersionByCondition.get(name);
                    List<String> unconverged = ComponentCatalog.ALL.stream()
                            .filter(d -> !notInStack.contains(d.name()) && !truth.converged(d.name(), expected)).map(d -> d.name()).toList();
                    if (!unconverged.isEmpty()) {
                        violations.add(revision + " while not converged at " + expected + ": " + unconverged);
                    }
                }
                // published only once judged: scenarios wait for a revision and then change the
                // simulator, which must not happen between its arrival and its judgement
                revisions.add(revision);
            }
        }
        stampStatus(oc);
    }

    @SuppressWarnings("unchecked")
    private void stampStatus(GenericKubernetesResource oc) {
        Object spec = oc.getAdditionalProperties().get("spec");
        List<Object> conditions = spec instanceof Map<?, ?> s && s.get("conditions") instanceof List<?> l
                ? new ArrayList<>(l) : List.of();
        List<Object> stamped = new ArrayList<>();
        for (Object c : conditions) {
            Map<String, Object> copy = new java.util.LinkedHashMap<>((Map<String, Object>) c);
            copy.put("observedGeneration", oc.getMetadata().getGeneration());
            stamped.add(copy);
        }
        Map<String, Object> status = Map.of("conditions", stamped);
        if (status.equals(oc.getAdditionalProperties().get("status"))) {
            return;
        }
        oc.getAdditionalProperties().put("status", status);
        try {
            resources().resource(oc).updateStatus();
        } catch (KubernetesClientException e) {
            // a newer revision is on its way; it will be stamped when it arrives
        }
    }

    /**
     * Someone deletes the installed CSV's OperatorCondition and OLM recreates it, empty: until the
     * operator writes it again, OLM reads "upgradeable".
     */
    public void deleteAndRecreate(String version) {
        String name = OperatorProcess.operatorConditionName(version);
        resources().withName(name).withTimeout(10, java.util.concurrent.TimeUnit.SECONDS).delete();
        resources().resource(empty(name)).create();
    }

    /** An OperatorCondition as OLM creates it for a CSV: named after it, an empty spec. */
    private GenericKubernetesResource empty(String name) {
        GenericKubernetesResource oc = new GenericKubernetesResource();
        oc.setApiVersion(OperatorConditionWriter.API_VERSION);
        oc.setKind(OperatorConditionWriter.KIND);
        oc.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).withNamespace(namespace)
                .build());
        oc.getAdditionalProperties().put("spec", Map.of());
        return oc;
    }

    /** OLM's reading of the installed CSV's OperatorCondition. */
    public boolean upgradeable(String version) {
        GenericKubernetesResource oc = resources().withName(OperatorProcess.operatorConditionName(version)).get();
        if (oc == null) {
            return true;
        }
        Object spec = oc.getAdditionalProperties().get("spec");
        if (spec instanceof Map<?, ?> s && s.get("overrides") instanceof List<?> overrides) {
            for (Object o : overrides) {
                if (o instanceof Map<?, ?> m && "Upgradeable".equals(m.get("type"))) {
                    return "True".equals(m.get("status"));
                }
            }
        }
        Map<String, Object> c = condition(oc, "status");
        if (c == null) {
            return true;
        }
        Object observed = c.get("observedGeneration");
        if (!(observed instanceof Number n) || n.longValue() < oc.getMetadata().getGeneration()) {
            return false;
        }
        return "True".equals(c.get("status"));
    }

    /** The Upgradeable condition in the operator's spec.conditions; null when none. */
    public Map<String, Object> written(String version) {
        GenericKubernetesResource oc = resources().withName(OperatorProcess.operatorConditionName(version)).get();
        return oc == null ? null : condition(oc, "spec");
    }

    private static Map<String, Object> condition(GenericKubernetesResource oc, String where) {
        return Cluster.upgradeableOf(oc, where);
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource, io.fabric8.kubernetes.api.model.GenericKubernetesResourceList, io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>> resources() {
        return admin.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(namespace);
    }

    /**
     * Whether this stand-in has itself seen a revision with that status. Scenarios change the
     * simulator only after the audit saw the revision, so each revision is judged against the
     * ground truth of its own moment.
     */
    public boolean saw(String version, String status) {
        String prefix = OperatorProcess.operatorConditionName(version) + " gen ";
        return revisions.stream().anyMatch(r -> r.startsWith(prefix) && r.contains(": " + status + "/"));
    }

    /** The last revision seen for that version, e.g. "False/UpgradeInProgress"; null when none. */
    public String last(String version) {
        String prefix = OperatorProcess.operatorConditionName(version) + " gen ";
        String last = null;
        for (String r : revisions) {
            if (r.startsWith(prefix)) {
                last = r.substring(r.indexOf(": ") + 2);
            }
        }
        return last;
    }

    public List<String> revisions() {
        return revisions;
    }

    public List<String> violations() {
        return violations;
    }

    @Override
    public void close() {
        informers.forEach(SharedIndexInformer::close);
    }
}
