package io.kubevirt.hco.simulator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;

/**
 * Every revision of the HyperConverged and of every component CR, so that a claim the gate wrote
 * at resourceVersion R is judged on the stack as it stood at R.
 * <p>
 * Judging it on the stack as it stands when the claim's watch event arrives is wrong both ways:
 * watches of different kinds are delivered independently, so by then a component may have moved
 * on (a True that was right looks false: RealOlmIT's audit failed so once, the test having turned
 * KubeVirt Progressing after it read the True and before the audit's event came) or come back (a
 * True that was wrong looks right).
 */
public final class StackHistory implements AutoCloseable {

    /** Whether a component's CR, as read at some revision, shows it converged at a version. */
    @FunctionalInterface
    public interface Judge {
        boolean converged(ComponentDescriptor d, GenericKubernetesResource crAtRevision, String version);
    }

    /** One revision of one object; {@code object} null: deleted at that revision. */
    private record Revision(long resourceVersion, GenericKubernetesResource object) {
    }

    private static final ResourceDefinitionContext HYPERCONVERGED = ResourceDefinitionContext
            .fromResourceType(HyperConverged.class);

    private final KubernetesClient client;
    private final String namespace;
    /** By kind, then name: revisions in the order the kind's watch delivered them (resourceVersion order). */
    private final Map<String, Map<String, List<Revision>>> revisions = new ConcurrentHashMap<>();
    private final List<Watch> watches = new CopyOnWriteArrayList<>();

    public StackHistory(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
        follow(HYPERCONVERGED, true);
        ComponentCatalog.ALL.forEach(d -> follow(ComponentResources.definition(d), d.namespaced()));
    }

    private void follow(ResourceDefinitionContext kind, boolean namespaced) {
        var all = client.genericKubernetesResources(kind);
        var scoped = namespaced ? all.inNamespace(namespace) : all;
        // listed first, then watched from the list's revision: nothing falls between the two
        GenericKubernetesResourceList listed = scoped.list();
        listed.getItems().forEach(o -> record(kind.getKind(), o, false));
        var options = new io.fabric8.kubernetes.api.model.ListOptionsBuilder()
                .withResourceVersion(listed.getMetadata().getResourceVersion()).build();
        watches.add(scoped.watch(options, new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource o) {
                record(kind.getKind(), o, action == Action.DELETED);
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        }));
    }

    private void record(String kind, GenericKubernetesResource o, boolean deleted) {
        long rv = Long.parseLong(o.getMetadata().getResourceVersion());
        List<Revision> of = revisions.computeIfAbsent(kind, k -> new ConcurrentHashMap<>())
                .computeIfAbsent(o.getMetadata().getName(), n -> new CopyOnWriteArrayList<>());
        if (of.isEmpty() || of.get(of.size() - 1).resourceVersion() < rv) {
            of.add(new Revision(rv, deleted ? null : o));
        }
    }

    /**
     * Waits until the history holds what the API server holds now: every object listed now at the
     * revision listed, every object gone now deleted. Call before judging a claim: its revision is
     * then covered.
     */
    public void catchUp(Duration atMost) throws InterruptedException {
        Instant deadline = Instant.now().plus(atMost);
        while (!caughtUp()) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("the stack's history did not catch up with the API server within "
                        + atMost);
            }
            Thread.sleep(50);
        }
    }

    private boolean caughtUp() {
        if (!caughtUp(HYPERCONVERGED, true)) {
            return false;
        }
        return ComponentCatalog.ALL.stream().allMatch(d -> caughtUp(ComponentResources.definition(d), d.namespaced()));
    }

    private boolean caughtUp(ResourceDefinitionContext kind, boolean namespaced) {
        var all = client.genericKubernetesResources(kind);
        List<GenericKubernetesResource> now = (namespaced ? all.inNamespace(namespace) : all).list().getItems();
        Map<String, List<Revision>> known = revisions.getOrDefault(kind.getKind(), Map.of());
        for (GenericKubernetesResource o : now) {
            Revision last = last(known.get(o.getMetadata().getName()));
            if (last == null || last.object() == null
                    || last.resourceVersion() < Long.parseLong(o.getMetadata().getResourceVersion())) {
                return false;
            }
        }
        List<String> names = now.stream().map(o -> o.getMetadata().getName()).toList();
        return known.entrySet().stream().allMatch(e -> names.contains(e.getKey()) || last(e.getValue()).object() == null);
    }

    private static Revision last(List<Revision> of) {
        return of == null || of.isEmpty() ? null : of.get(of.size() - 1);
    }

    /** The object as it stood at {@code resourceVersion}; null when it did not exist then. */
    public GenericKubernetesResource at(String kind, String name, long resourceVersion) {
        List<Revision> of = revisions.getOrDefault(kind, Map.of()).get(name);
        GenericKubernetesResource then = null;
        for (Revision r : of == null ? List.<Revision> of() : of) {
            if (r.resourceVersion() > resourceVersion) {
                break;
            }
            then = r.object();
        }
        return then;
    }

    /** Nothing installed at {@code resourceVersion}: no HyperConverged and no CR of any component. */
    public boolean emptyAt(long resourceVersion) {
        List<String> kinds = new ArrayList<>(List.of(HYPERCONVERGED.getKind()));
        ComponentCatalog.ALL.forEach(d -> kinds.add(d.kind()));
        return kinds.stream().allMatch(kind -> revisions.getOrDefault(kind, Map.of()).keySet().stream()
                .allMatch(name -> at(kind, name, resourceVersion) == null));
    }

    /** Every component's managed CR, as it stood at {@code resourceVersion}, converged at {@code version}. */
    public boolean convergedAt(long resourceVersion, String version, Judge judge) {
        return unconvergedAt(resourceVersion, version, judge).isEmpty();
    }

    /** The components whose managed CR, as it stood at {@code resourceVersion}, was not converged at {@code version}. */
    public List<String> unconvergedAt(long resourceVersion, String version, Judge judge) {
        return ComponentCatalog.ALL.stream().filter(d -> {
            GenericKubernetesResource cr = at(d.kind(), d.crName(), resourceVersion);
            return cr == null || !judge.converged(d, cr, version);
        }).map(ComponentDescriptor::name).toList();
    }

    @Override
    public void close() {
        watches.forEach(Watch::close);
    }
}
