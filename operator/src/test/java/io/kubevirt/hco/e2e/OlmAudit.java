package io.kubevirt.hco.e2e;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kubevirt.hco.gate.OperatorConditionWriter;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.StackHistory;

/**
 * Every revision of every CSV and OperatorCondition in a namespace, in the order etcd committed them
 * (resourceVersion): the record the OLM scenarios' claims are checked against. Each revision also
 * carries the ground truth at its own revision ({@code truthAt}, judged on a {@link StackHistory}),
 * not at the moment its watch event happened to arrive.
 */
final class OlmAudit implements AutoCloseable {

    static final ResourceDefinitionContext CSV = new ResourceDefinitionContext.Builder().withGroup("operators.coreos.com")
            .withVersion("v1alpha1").withKind("ClusterServiceVersion").withPlural("clusterserviceversions")
            .withNamespaced(true).build();

    /**
     * One revision: a CSV's phase, or an OperatorCondition's Upgradeable condition and overrides;
     * {@code uid} tells an object from one of the same name created after it was deleted.
     */
    record Revision(long resourceVersion, String kind, String name, String uid, String action, String status,
            String reason, String message, Object overrides, String truth) {
        Revision withTruth(String truthThen) {
            return new Revision(resourceVersion, kind, name, uid, action, status, reason, message, overrides, truthThen);
        }

        @Override
        public String toString() {
            return resourceVersion + " " + kind + "/" + name + " " + action + " " + status + " " + reason + " ["
                    + truth + "] " + (message == null ? "" : message);
        }
    }

    private final List<Revision> revisions = new CopyOnWriteArrayList<>();
    private final List<Watch> watches;
    private final StackHistory stack;
    private final java.util.function.BiFunction<StackHistory, Long, String> truthAt;

    OlmAudit(KubernetesClient admin, String namespace, java.util.function.BiFunction<StackHistory, Long, String> truthAt) {
        this.truthAt = truthAt;
        this.stack = new StackHistory(admin, namespace);
        this.watches = List.of(
                watch(admin, namespace, CSV, this::csv),
                watch(admin, namespace, OperatorConditionWriter.DEFINITION, this::operatorCondition),
                watch(admin, namespace, DEPLOYMENT, this::deployment));
    }

    static final ResourceDefinitionContext DEPLOYMENT = new ResourceDefinitionContext.Builder().withGroup("apps")
            .withVersion("v1").withKind("Deployment").withPlural("deployments").withNamespaced(true).build();

    /** A Deployment's revision, its status being the image it runs: when OLM replaced which operator. */
    @SuppressWarnings("unchecked")
    private void deployment(Watcher.Action action, GenericKubernetesResource d) {
        Object image = null;
        if (d.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
                && spec.get("template") instanceof Map<?, ?> template && template.get("spec") instanceof Map<?, ?> pod
                && pod.get("containers") instanceof List<?> containers && !containers.isEmpty()) {
            image = ((Map<String, Object>) containers.get(0)).get("image");
        }
        add(d, "Deployment", action, (String) image, null, null, null);
    }

    private static Watch watch(KubernetesClient admin, String namespace, ResourceDefinitionContext kind,
            java.util.function.BiConsumer<Watcher.Action, GenericKubernetesResource> to) {
        return admin.genericKubernetesResources(kind).inNamespace(namespace).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource r) {
                to.accept(action, r);
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
    }

    @SuppressWarnings("unchecked")
    private void csv(Watcher.Action action, GenericKubernetesResource csv) {
        Map<String, Object> status = (Map<String, Object>) csv.getAdditionalProperties().get("status");
        add(csv, "CSV", action, status == null ? null : (String) status.get("phase"),
                status == null ? null : (String) status.get("reason"), status == null ? null : (String) status.get("message"),
                null);
    }

    @SuppressWarnings("unchecked")
    private void operatorCondition(Watcher.Action action, GenericKubernetesResource oc) {
        Map<String, Object> upgradeable = Cluster.upgradeableOf(oc);
        Object spec = oc.getAdditionalProperties().get("spec");
        Object overrides = spec instanceof Map<?, ?> m ? m.get("overrides") : null;
        add(oc, "OperatorCondition", action, upgradeable == null ? null : (String) upgradeable.get("status"),
                upgradeable == null ? null : (String) upgradeable.get("reason"),
                upgradeable == null ? null : (String) upgradeable.get("message"), overrides);
    }

    private void add(GenericKubernetesResource r, String kind, Watcher.Action action, String status, String reason,
            String message, Object overrides) {
        revisions.add(new Revision(Long.parseLong(r.getMetadata().getResourceVersion()), kind, r.getMetadata().getName(),
                r.getMetadata().getUid(), action.name(), status, reason, message, overrides, null));
    }

    /**
     * All revisions so far, ordered by resourceVersion (watch delivery across kinds is not
     * ordered), each with the truth at its revision (the stack's history caught up first).
     */
    List<Revision> revisions() {
        return judged(r -> true);
    }

    List<Revision> of(String kind, String name) {
        return judged(r -> r.kind().equals(kind) && r.name().equals(name));
    }

    /** The revisions {@code which} selects, in resourceVersion order, each given the truth at its revision. */
    private List<Revision> judged(java.util.function.Predicate<Revision> which) {
        try {
            stack.catchUp(java.time.Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return revisions.stream().filter(which).sorted(java.util.Comparator.comparingLong(Revision::resourceVersion))
                .map(r -> r.withTruth(truthAt.apply(stack, r.resourceVersion())))
                .toList();
    }

    long latestRevision() {
        return revisions.stream().mapToLong(Revision::resourceVersion).max().orElse(0);
    }

    /** The first revision of {@code name} (a CSV) in {@code phase}; null if none. */
    Revision firstPhase(String name, String phase) {
        return of("CSV", name).stream().filter(r -> phase.equals(r.status())).findFirst().orElse(null);
    }

    void print(Consumer<String> out) {
        revisions().forEach(r -> out.accept(r.toString()));
    }

    @Override
    public void close() {
        watches.forEach(Watch::close);
        stack.close();
    }
}
