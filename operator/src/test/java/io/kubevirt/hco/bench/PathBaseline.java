package io.kubevirt.hco.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.e2e.BenchSupport;
import io.kubevirt.hco.e2e.ClusterSetup;
import io.kubevirt.hco.e2e.RealApiServer;
import io.kubevirt.hco.gate.OperatorConditionWriter;

/**
 * The API server's own round trip on the gate's path, without the operator: the same requests the
 * degrade figure is made of, sent by bare clients. A copy of the stack's flipped component CR (its
 * spec, labels, annotations and status, so the same size and the same schema) gets its status
 * written as the simulated operator writes it (a PUT of the whole object); a relay watching it
 * sends the JSON Patch the gate's writer sends (test of {@code spec.conditions}, then replace) to
 * an OperatorCondition; an observer watches that. The plain baseline relays two empty CRs: the
 * difference between the two baselines is what the objects' size and kinds cost the API server.
 * The copies live in a namespace of their own, which the operator does not watch (the flipped
 * kind must be namespaced, or the operator's informer would see them).
 */
final class PathBaseline {

    private static final Pattern ROUND = Pattern.compile("bench round (\\d+)");

    /** The samples (ms), and the flipped object's size as the API server returns it. */
    record Result(List<Double> samples, int objectBytes, int managedFieldEntries) {
    }

    private PathBaseline() {
    }

    static Result run(RealApiServer api, ComponentDescriptor kind, GenericKubernetesResource flipped, int rounds,
            String ns) throws Exception {
        if (!kind.namespaced()) {
            throw new IllegalArgumentException(kind.kind() + " is cluster-scoped: a copy would wake the operator");
        }
        KubernetesClient writer = api.admin();
        ClusterSetup.createNamespace(writer, ns);
        var crs = ComponentResources.of(writer, kind, ns);
        crs.resource(copyOf(flipped, "a", ns)).create();
        GenericKubernetesResource a = crs.withName("a").get();
        a.getAdditionalProperties().put("status", flipped.getAdditionalProperties().get("status"));
        a = crs.resource(a).updateStatus();
        int bytes = writer.getKubernetesSerialization().asJson(a).length();
        int managers = a.getMetadata().getManagedFields() == null ? 0 : a.getMetadata().getManagedFields().size();

        var conditions = writer.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(ns);
        List<Object> initial = List.of(condition(0));
        GenericKubernetesResource oc = target(ns);
        oc.getAdditionalProperties().put("spec", Map.of("conditions", initial));
        conditions.resource(oc).create();

        BlockingQueue<long[]> seen = new LinkedBlockingQueue<>();
        AtomicReference<List<Object>> written = new AtomicReference<>(initial);
        try (KubernetesClient relay = BenchSupport.bareClient(api);
                KubernetesClient observer = BenchSupport.bareClient(api);
                Watch relayWatch = BenchSupport.watch(ComponentResources.of(relay, kind, ns), "a", cr -> {
                    Long round = roundOf(cr.getAdditionalProperties().get("status") instanceof Map<?, ?> s
                            ? s.get(BenchSupport.ROUND) : null);
                    if (round != null && round > 0) {
                        List<Object> desired = List.of(condition(round));
                        relay.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(ns)
                                .resource(target(ns)).patch(PatchContext.of(PatchType.JSON),
                                        relay.getKubernetesSerialization().asJson(List.of(
                                                Map.of("op", "test", "path", "/spec/conditions", "value", written.get()),
                                                Map.of("op", "replace", "path", "/spec/conditions", "value", desired))));
                        written.set(desired);
                    }
                });
                Watch observerWatch = observer.genericKubernetesResources(OperatorConditionWriter.DEFINITION)
                        .inNamespace(ns).withName("b").watch(BenchSupport.watcher(r -> {
                            Long round = roundOf(r.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
                                    && spec.get("conditions") instanceof List<?> l && !l.isEmpty()
                                    && l.get(0) instanceof Map<?, ?> c ? c.get("message") : null);
                            if (round != null) {
                                seen.add(new long[] { round, System.nanoTime() });
                            }
                        }))) {
            // the simulated operator reads, then writes the whole object back: only the write is timed
            List<Double> samples = BenchSupport.timedRounds(rounds, seen, i -> {
                GenericKubernetesResource cr = crs.withName("a").get();
                @SuppressWarnings("unchecked")
                Map<String, Object> status = new HashMap<>((Map<String, Object>) cr.getAdditionalProperties().get("status"));
                status.put(BenchSupport.ROUND, "bench round " + i);
                cr.getAdditionalProperties().put("status", status);
                return () -> crs.resource(cr).updateStatus();
            });
            return new Result(samples, bytes, managers);
        }
    }

    /** Spec, labels, annotations and status of the stack's CR under another name: not its identity or history. */
    private static GenericKubernetesResource copyOf(GenericKubernetesResource source, String name, String ns) {
        GenericKubernetesResource copy = new GenericKubernetesResource();
        copy.setApiVersion(source.getApiVersion());
        copy.setKind(source.getKind());
        copy.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns)
                .withLabels(source.getMetadata().getLabels()).withAnnotations(source.getMetadata().getAnnotations()).build());
        copy.getAdditionalProperties().put("spec", source.getAdditionalProperties().get("spec"));
        return copy;
    }

    /** The OperatorCondition "b", by name only (a patch needs no more). */
    private static GenericKubernetesResource target(String ns) {
        GenericKubernetesResource t = new GenericKubernetesResource();
        t.setApiVersion(OperatorConditionWriter.API_VERSION);
        t.setKind(OperatorConditionWriter.KIND);
        t.setMetadata(new ObjectMetaBuilder().withName("b").withNamespace(ns).build());
        return t;
    }

    /** An Upgradeable condition as the gate writes one, its message carrying the round. */
    private static Map<String, Object> condition(long round) {
        return Map.of("type", "Upgradeable", "status", "False", "reason", "ComponentDegraded",
                "message", "bench round " + round + ": component kubevirt is degraded",
                "lastTransitionTime", java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    }

    private static Long roundOf(Object text) {
        Matcher m = text instanceof String s ? ROUND.matcher(s) : null;
        return m != null && m.find() ? Long.parseLong(m.group(1)) : null;
    }
}
