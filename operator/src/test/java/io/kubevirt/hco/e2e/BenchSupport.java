package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.simulator.Cluster;

/** The parts of the e2e harness the benchmark ({@code io.kubevirt.hco.bench}) uses. */
public final class BenchSupport {

    private BenchSupport() {
    }

    public static void installCrds(KubernetesClient admin) throws IOException {
        ClusterSetup.installCrds(admin);
    }

    /** The operator's ServiceAccount and RBAC (as the chart installs them); returns its token. */
    public static String installOperator(KubernetesClient admin, String namespace) throws IOException {
        return ClusterSetup.installOperatorIdentity(admin, namespace);
    }

    /**
     * The apiserver's own round trip, as the gate path has it: a status write, its watch event to a
     * second client, that client's status write on another object, and its event to a third client.
     * Milliseconds per round, measured {@code rounds} times (after 20 warm-up rounds).
     */
    public static List<Double> relayRoundTrips(RealApiServer api, int rounds) throws Exception {
        return relayRoundTrips(api, rounds, "bench-baseline");
    }

    /** As above, with its two CRs in namespace {@code ns} (one run per namespace). */
    public static List<Double> relayRoundTrips(RealApiServer api, int rounds, String ns) throws Exception {
        ComponentDescriptor kind = ComponentCatalog.ALL.stream().filter(ComponentDescriptor::namespaced).findFirst()
                .orElseThrow();
        KubernetesClient writer = api.admin();
        ClusterSetup.createNamespace(writer, ns);
        for (String name : List.of("a", "b")) {
            ComponentResources.of(writer, kind, ns).resource(emptyCr(kind, name, ns)).create();
        }
        BlockingQueue<long[]> seen = new LinkedBlockingQueue<>();
        // the relay is b's only writer: it writes from its own last write, without reading first
        java.util.concurrent.atomic.AtomicReference<GenericKubernetesResource> lastB = new java.util.concurrent.atomic.AtomicReference<>(
                ComponentResources.of(writer, kind, ns).withName("b").get());
        try (KubernetesClient relay = bareClient(api);
                KubernetesClient observer = bareClient(api);
                Watch relayWatch = watch(ComponentResources.of(relay, kind, ns), "a", cr -> {
                    Object round = status(cr);
                    if (round != null) {
                        var b = lastB.get();
                        b.getAdditionalProperties().put("status", Map.of(ROUND, round.toString()));
                        lastB.set(ComponentResources.of(relay, kind, ns).resource(b).updateStatus());
                    }
                });
                Watch observerWatch = watch(ComponentResources.of(observer, kind, ns), "b", cr -> {
                    Object round = status(cr);
                    if (round != null) {
                        seen.add(new long[] { Long.parseLong(round.toString()), System.nanoTime() });
                    }
                })) {
            var a = ComponentResources.of(writer, kind, ns);
            return timedRounds(rounds, seen, i -> {
                GenericKubernetesResource cr = a.withName("a").get();
                cr.getAdditionalProperties().put("status", Map.of(ROUND, Integer.toString(i)));
                return () -> a.resource(cr).updateStatus();
            });
        }
    }

    /** Rounds of a relay run before the counted ones, not counted. */
    public static final int WARM_UP_ROUNDS = 20;

    /**
     * The timing rule both baselines share: {@code prepare} reads what round {@code i} writes and
     * hands back the write; the clock runs from that write to round {@code i} arriving in
     * {@code seen}. The first {@link #WARM_UP_ROUNDS} rounds are not counted.
     */
    public static List<Double> timedRounds(int rounds, BlockingQueue<long[]> seen,
            java.util.function.IntFunction<Runnable> prepare) throws InterruptedException {
        List<Double> samples = new ArrayList<>();
        for (int i = 1; i <= rounds + WARM_UP_ROUNDS; i++) {
            Runnable write = prepare.apply(i);
            long start = System.nanoTime();
            write.run();
            long arrived = awaitRound(seen, i);
            if (i > WARM_UP_ROUNDS) {
                samples.add((arrived - start) / 1e6);
            }
        }
        return samples;
    }

    /**
     * A CR of a component kind with the least spec its CRD accepts: not ours, just an object of that
     * kind. SSP's CRD requires commonTemplates.namespace, as upstream's does.
     */
    private static GenericKubernetesResource emptyCr(ComponentDescriptor kind, String name, String namespace) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(kind.group() + "/" + kind.version());
        r.setKind(kind.kind());
        r.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        r.getAdditionalProperties().put("spec", kind.kind().equals("SSP")
                ? Map.of("commonTemplates", Map.of("namespace", "openshift"))
                : Map.of());
        return r;
    }

    /** A status field the component CRD knows (an unknown one would be pruned): it carries the round number. */
    public static final String ROUND = "operatorVersion";

    private static Object status(GenericKubernetesResource cr) {
        return cr.getAdditionalProperties().get("status") instanceof Map<?, ?> m ? m.get(ROUND) : null;
    }

    private static long awaitRound(BlockingQueue<long[]> seen, long round) throws InterruptedException {
        while (true) {
            long[] e = seen.poll(30, TimeUnit.SECONDS);
            if (e == null) {
                throw new IllegalStateException("round " + round + " never arrived");
            }
            if (e[0] == round) {
                return e[1];
            }
        }
    }

    /** An admin client of its own (connections, watches), as a bare fabric8 user has one. */
    public static KubernetesClient bareClient(RealApiServer api) {
        return new KubernetesClientBuilder().withConfig(api.config(RealApiServer.ADMIN_TOKEN)).build();
    }

    /** A watch of one named object that hands every event to {@code onEvent}. */
    public static Watch watch(NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> op,
            String name, java.util.function.Consumer<GenericKubernetesResource> onEvent) {
        return op.withName(name).watch(watcher(onEvent));
    }

    /** A watcher that hands every event's object to {@code onEvent}. */
    public static Watcher<GenericKubernetesResource> watcher(java.util.function.Consumer<GenericKubernetesResource> onEvent) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource r) {
                onEvent.accept(r);
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        };
    }

    /** Milliseconds from process start to readiness UP, and to Upgradeable=False/Initializing seen by a watcher. */
    public record Startup(double readyMs, double heldMs) {
    }

    /**
     * A fresh operator process in its own namespace. A watch opened before the process starts
     * records the OperatorCondition's Upgradeable revisions: the first one must be Initializing
     * (the operator may well have moved on to its first decision by the time readiness is polled).
     */
    public static Startup startToHeld(RealApiServer api, String namespace, OperatorLaunch launch) throws Exception {
        KubernetesClient admin = api.admin();
        String token = ClusterSetup.installOperatorIdentity(admin, namespace);
        Cluster cluster = new Cluster(admin, namespace);
        String condition = OperatorProcess.operatorConditionName("1.0.0");
        cluster.createOperatorCondition(condition);
        Path kubeconfig = api.kubeconfig("hco-operator-" + namespace, token, namespace);
        try (GateWatch revisions = new GateWatch(admin, namespace, condition)) {
            long start = System.nanoTime();
            try (OperatorProcess p = OperatorProcess.start(namespace, kubeconfig, namespace, "1.0.0", Map.of(),
                    api.dir(), launch)) {
                long deadline = start + Duration.ofSeconds(60).toNanos();
                while (p.readiness() != 200) {
                    if (System.nanoTime() > deadline || !p.alive()) {
                        throw new IllegalStateException(namespace + ": not ready; log:\n" + p.log());
                    }
                    Thread.sleep(5);
                }
                double ready = (System.nanoTime() - start) / 1e6;
                // readiness is UP only once the write returned; its watch event may still be on the way
                GateWatch.Seen first = revisions.next(Duration.ofSeconds(10));
                if (first == null || !"Initializing".equals(first.reason())) {
                    throw new IllegalStateException(namespace + ": the first Upgradeable revision was "
                            + (first == null ? "none within 10 s of readiness" : first.reason()) + ", not Initializing");
                }
                double held = (first.nanoTime() - start) / 1e6;
                var started = java.util.regex.Pattern.compile("started in ([0-9.]+)s").matcher(p.log());
                System.out.printf("[bench] %s: Initializing seen after %.0f ms, ready after %.0f ms (Quarkus reported "
                        + "\"started in %ss\")%n", namespace, held, ready, started.find() ? started.group(1) : "?");
                if (Boolean.getBoolean("bench.startup-log")) {
                    System.out.println(p.log());
                }
                return new Startup(ready, held);
            }
        }
    }

    /**
     * Trains a class-data-sharing archive for {@code jar} with the image's own script
     * ({@code packaging/jvm/train-appcds.sh}) and this JVM; returns how long it took, in ms.
     */
    public static double trainAppCds(Path jar, Path archive) throws Exception {
        long start = System.nanoTime();
        ProcessBuilder pb = new ProcessBuilder("sh", io.kubevirt.hco.Repo.path("packaging/jvm/train-appcds.sh").toString(),
                jar.toAbsolutePath().toString(), archive.toAbsolutePath().toString()).inheritIO();
        pb.environment().put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        int exit = pb.start().waitFor();
        if (exit != 0) {
            throw new IllegalStateException("train-appcds.sh failed with " + exit);
        }
        return (System.nanoTime() - start) / 1e6;
    }

    /** Objects of a kind the operator watches, but not its own, changing {@code perSecond} times a second. */
    public static Noise noise(KubernetesClient admin, String namespace, int perSecond) {
        return new Noise(admin, namespace, perSecond);
    }

    /** Status writes to unrelated CRs of a watched kind, at a fixed rate, from two threads. */
    public static final class Noise implements AutoCloseable {
        private final AtomicLong writes = new AtomicLong();
        private final ScheduledExecutorService pool = Executors.newScheduledThreadPool(2);

        Noise(KubernetesClient admin, String namespace, int perSecond) {
            ComponentDescriptor kind = ComponentCatalog.ALL.stream().filter(ComponentDescriptor::namespaced)
                    .reduce((a, b) -> b).orElseThrow();
            var op = ComponentResources.of(admin, kind, namespace);
            List<String> names = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                String name = "unrelated-" + i;
                names.add(name);
                if (op.withName(name).get() == null) {
                    op.resource(emptyCr(kind, name, namespace)).create();
                }
            }
            AtomicLong next = new AtomicLong();
            long periodMicros = 1_000_000L / perSecond;
            pool.scheduleAtFixedRate(() -> {
                try {
                    String name = names.get((int) (next.getAndIncrement() % names.size()));
                    GenericKubernetesResource r = op.withName(name).get();
                    r.getAdditionalProperties().put("status", Map.of(ROUND, String.valueOf(writes.get())));
                    op.resource(r).updateStatus();
                    writes.incrementAndGet();
                } catch (RuntimeException e) {
                    // a conflict between the two threads: skip this tick
                }
            }, 0, periodMicros, TimeUnit.MICROSECONDS);
        }

        public long writes() {
            return writes.get();
        }

        @Override
        public void close() throws InterruptedException {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /** User + system CPU seconds of a process so far (Linux /proc, clock ticks of 1/100 s). */
    public static double cpuSeconds(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
    }

    /** Resident set size of a process in kB (Linux /proc). */
    public static long rssKb(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("VmRSS:"))
                .map(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).findFirst().orElse(-1L);
    }
}
