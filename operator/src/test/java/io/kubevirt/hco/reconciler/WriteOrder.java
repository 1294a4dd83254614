package io.kubevirt.hco.reconciler;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * Every revision of some resources, with its resourceVersion: on the test server one counter
 * orders all writes, so "this was written before that" is a comparison of two numbers, whatever
 * order the watches deliver them in.
 */
final class WriteOrder implements AutoCloseable {

    record Revision(String kind, String action, long resourceVersion, GenericKubernetesResource object) {
    }

    private final List<Revision> revisions = new CopyOnWriteArrayList<>();
    private final List<Watch> watches = new ArrayList<>();

    WriteOrder watch(KubernetesClient client, String namespace, ResourceDefinitionContext definition) {
        var resources = client.genericKubernetesResources(definition);
        var scoped = definition.isNamespaceScoped() ? resources.inNamespace(namespace) : resources;
        watches.add(scoped.watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource object) {
                revisions.add(new Revision(definition.getKind(), action.name(),
                        Long.parseLong(object.getMetadata().getResourceVersion()), object));
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        }));
        return this;
    }

    /** The resourceVersion of the first revision of {@code kind} that matches, if one was seen. */
    OptionalLong first(String kind, Predicate<Revision> matching) {
        return revisions.stream().filter(r -> r.kind().equals(kind) && matching.test(r))
                .mapToLong(Revision::resourceVersion).min();
    }

    @Override
    public void close() {
        watches.forEach(Watch::close);
    }
}
