package io.kubevirt.hco.e2e;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.core.GateReason;
import io.kubevirt.hco.snapshot.StackSnapshots;

/**
 * Every revision of the HyperConverged and of each component CR, as the API server's watches
 * deliver them, indexed by resourceVersion (etcd's one global revision): each revision of the
 * HyperConverged that says Upgradeable=True is judged against the state every component CR had at
 * that same revision. A component counts as converged there when it reports Available=True,
 * Progressing=False and Degraded=False, the expected version as observed (and target), and, where it
 * reports one, the observed generation of its current spec. A True on any other revision is false.
 */
final class RevisionAudit implements AutoCloseable {

    /** One HyperConverged revision with Upgradeable=True whose stack had not converged. */
    record FalseTrue(long revision, String component, String why) {
    }

    private final List<Watch> watches = new ArrayList<>();
    private final Map<String, NavigableMap<Long, GenericKubernetesResource>> components = new ConcurrentHashMap<>();
    private final NavigableMap<Long, GenericKubernetesResource> hco = new ConcurrentSkipListMap<>();
    private final NavigableMap<Long, GenericKubernetesResource> olmConditions = new ConcurrentSkipListMap<>();
    /** When each revision's event arrived here: for the time from a component's last status write to True. */
    private final Map<Long, java.time.Instant> seenAt = new ConcurrentHashMap<>();
    private final List<String> closed = new CopyOnWriteArrayList<>();
    private static final io.fabric8.kubernetes.client.utils.KubernetesSerialization SERIALIZATION =
            new io.fabric8.kubernetes.client.utils.KubernetesSerialization();

    RevisionAudit(KubernetesClient admin, String namespace, List<ComponentDescriptor> stack) {
        this(admin, namespace, stack, null);
    }

    /**
     * As above, and with {@code operatorCondition} (a CSV's name), every revision of the
     * OperatorCondition OLM reads, whose Upgradeable=True revisions are judged the same way.
     */
    RevisionAudit(KubernetesClient admin, String namespace, List<ComponentDescriptor> stack, String operatorCondition) {
        watches.add(watch(admin.genericKubernetesResources("hco.kubevirt.io/v1beta1", "HyperConverged")
                .inNamespace(namespace), hco, "HyperConverged"));
        if (operatorCondition != null) {
            watches.add(watch(admin.genericKubernetesResources("operators.coreos.com/v2", "OperatorCondition")
                    .inNamespace(namespace).withField("metadata.name", operatorCondition), olmConditions, "OperatorCondition"));
        }
        for (ComponentDescriptor d : stack) {
            NavigableMap<Long, GenericKubernetesResource> history = new ConcurrentSkipListMap<>();
            components.put(d.kind(), history);
            var resources = admin.genericKubernetesResources(d.group() + "/" + d.version(), d.kind());
            watches.add(d.namespaced() ? watch(resources.inNamespace(namespace), history, d.kind())
                    : watch(resources, history, d.kind()));
        }
    }

    private Watch watch(io.fabric8.kubernetes.client.dsl.Watchable<GenericKubernetesResource> what,
            NavigableMap<Long, GenericKubernetesResource> history, String kind) {
        return what.watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource r) {
                long revision = Long.parseLong(r.getMetadata().getResourceVersion());
                seenAt.put(revision, java.time.Instant.now());
                history.put(revision, action == Action.DELETED ? deleted(r) : r);
            }

            @Override
            public void onClose(WatcherException cause) {
                closed.add(kind + ": " + cause);
            }
        });
    }

    private static boolean isDeleted(GenericKubernetesResource r) {
        return Boolean.TRUE.equals(r.getAdditionalProperties().get("deleted"));
    }

    private static GenericKubernetesResource deleted(GenericKubernetesResource r) {
        GenericKubernetesResource gone = new GenericKubernetesResource();
        gone.setMetadata(r.getMetadata());
        gone.setAdditionalProperty("deleted", true);
        return gone;
    }

    /** How many HyperConverged revisions said Upgradeable=True. */
    long trueRevisions() {
        return hco.values().stream().filter(h -> "True".equals(upgradeable(h))).count();
    }

    /** The HyperConverged's revisions seen, all of them. */
    int hcoRevisions() {
        return hco.size();
    }

    /**
     * Every revision that said True while some component had not converged at the version expected
     * of it; the expectation is that of the release the revision records as installed
     * ({@code status.versions}, operator), so that an upgrade's revisions are each judged against
     * their own release. A True that records no known release is false too.
     */
    List<FalseTrue> falseTrues(Map<String, Map<String, String>> expectedByRelease) {
        requireEveryRevision();
        List<FalseTrue> found = new ArrayList<>();
        for (var e : hco.entrySet()) {
            if (!"True".equals(upgradeable(e.getValue()))) {
                continue;
            }
            String release = recordedRelease(e.getValue());
            Map<String, String> expectedVersions = expectedByRelease.get(release);
            if (expectedVersions == null) {
                found.add(new FalseTrue(e.getKey(), "HyperConverged", "True records release " + release
                        + ", expected one of " + expectedByRelease.keySet()));
                continue;
            }
            judge(e.getKey(), expectedVersions, found);
        }
        return found;
    }

    /**
     * Every revision of the OperatorCondition whose spec (what our operator writes, what OLM copies
     * and reads) said Upgradeable=True while some component had not converged at {@code expectedVersions}.
     */
    List<FalseTrue> operatorConditionFalseTrues(Map<String, String> expectedVersions) {
        requireEveryRevision();
        List<FalseTrue> found = new ArrayList<>();
        for (var e : olmConditions.entrySet()) {
            Map<String, Object> upgradeable = io.kubevirt.hco.simulator.Cluster.upgradeableOf(e.getValue());
            if (upgradeable == null || !"True".equals(upgradeable.get("status"))) {
                continue;
            }
            if (GateReason.NoStackInstalled.name().equals(upgradeable.get("reason"))) {
                // its claim is "nothing installed": judged against that, not against a converged stack
                nothingInstalled(e.getKey(), found);
            } else {
                judge(e.getKey(), expectedVersions, found);
            }
        }
        return found;
    }

    /** The audit's claims need every revision: a watch that ended may have missed some. */
    private void requireEveryRevision() {
        if (!closed.isEmpty()) {
            throw new IllegalStateException("a watch of the audit ended, revisions may be missing: " + closed);
        }
    }

    private void nothingInstalled(long revision, List<FalseTrue> found) {
        var h = hco.floorEntry(revision);
        if (h != null && !isDeleted(h.getValue())) {
            found.add(new FalseTrue(revision, "HyperConverged", "NoStackInstalled while a HyperConverged exists"));
        }
        for (var c : components.entrySet()) {
            var at = c.getValue().floorEntry(revision);
            if (at != null && !isDeleted(at.getValue())) {
                found.add(new FalseTrue(revision, c.getKey(), "NoStackInstalled while it exists"));
            }
        }
    }

    /** How many OperatorCondition revisions were seen. */
    int operatorConditionRevisions() {
        return olmConditions.size();
    }

    private void judge(long revision, Map<String, String> expectedVersions, List<FalseTrue> found) {
        for (var c : components.entrySet()) {
            var at = c.getValue().floorEntry(revision);
            String why = at == null ? "no such object yet" : notConverged(at.getValue(), expectedVersions.get(c.getKey()));
            if (why != null) {
                found.add(new FalseTrue(revision, c.getKey(), why));
            }
        }
    }

    /** The release a HyperConverged revision records as installed (status.versions, "operator"), or null. */
    static String recordedRelease(GenericKubernetesResource hco) {
        return StackSnapshots.recordedVersion(SERIALIZATION.convertValue(hco, io.kubevirt.hco.api.v1beta1.HyperConverged.class));
    }

    /** The revision everything seen so far has reached: a marker for "after this point". */
    long latestRevision() {
        return seenAt.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /** The first HyperConverged revision after {@code revision} that says Upgradeable=True, or -1. */
    long firstTrueAfter(long revision) {
        return hco.tailMap(revision, false).entrySet().stream().filter(e -> "True".equals(upgradeable(e.getValue())))
                .mapToLong(Map.Entry::getKey).findFirst().orElse(-1);
    }

    /**
     * For each component, the time from its last status write at or before {@code trueRevision} (the
     * last revision whose status differs from the one before it) to that True, as the watch events
     * arrived here.
     */
    Map<String, java.time.Duration> lastStatusWriteToTrue(long trueRevision) {
        Map<String, java.time.Duration> times = new java.util.TreeMap<>();
        for (var c : components.entrySet()) {
            Long write = null;
            Object previous = null;
            for (var e : c.getValue().headMap(trueRevision, true).entrySet()) {
                Object status = e.getValue().getAdditionalProperties().get("status");
                if (status != null && !status.equals(previous)) {
                    write = e.getKey();
                }
                previous = status;
            }
            if (write != null) {
                times.put(c.getKey(), java.time.Duration.between(seenAt.get(write), seenAt.get(trueRevision)));
            }
        }
        return times;
    }

    @SuppressWarnings("unchecked")
    static String upgradeable(GenericKubernetesResource hco) {
        if (!(hco.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
                || !(status.get("conditions") instanceof List<?> conditions)) {
            return null;
        }
        for (Object c : conditions) {
            Map<String, Object> m = (Map<String, Object>) c;
            if ("Upgradeable".equals(m.get("type"))) {
                return (String) m.get("status");
            }
        }
        return null;
    }

    /** Why this revision of a component CR is not converged at {@code version}, or null when it is. */
    @SuppressWarnings("unchecked")
    static String notConverged(GenericKubernetesResource cr, String version) {
        if (isDeleted(cr)) {
            return "deleted";
        }
        if (!(cr.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) {
            return "no status";
        }
        String observed = (String) (status.containsKey("observedKubeVirtVersion") ? status.get("observedKubeVirtVersion")
                : status.get("observedVersion"));
        String target = (String) (status.containsKey("targetKubeVirtVersion") ? status.get("targetKubeVirtVersion")
                : status.get("targetVersion"));
        if (!version.equals(observed) || (target != null && !version.equals(target))) {
            return "observed " + observed + ", target " + target + ", expected " + version;
        }
        Map<String, String> byType = new HashMap<>();
        if (status.get("conditions") instanceof List<?> conditions) {
            for (Object c : conditions) {
                Map<String, Object> m = (Map<String, Object>) c;
                byType.put((String) m.get("type"), (String) m.get("status"));
            }
        }
        if (!"True".equals(byType.get("Available")) || !"False".equals(byType.get("Progressing"))
                || !"False".equals(byType.get("Degraded"))) {
            return "conditions " + byType;
        }
        if (status.get("observedGeneration") instanceof Number g && g.longValue() != cr.getMetadata().getGeneration()) {
            return "observedGeneration " + g + " of generation " + cr.getMetadata().getGeneration();
        }
        return null;
    }

    /** The revisions of a component CR after {@code revision}, in order. */
    List<GenericKubernetesResource> statusesAfter(String kind, long revision) {
        return List.copyOf(components.get(kind).tailMap(revision, false).values());
    }

    /** The last revision of a component CR, for reports. */
    GenericKubernetesResource last(String kind) {
        var history = components.get(kind);
        return history == null || history.isEmpty() ? null : history.lastEntry().getValue();
    }

    @Override
    public void close() {
        watches.forEach(Watch::close);
    }
}
