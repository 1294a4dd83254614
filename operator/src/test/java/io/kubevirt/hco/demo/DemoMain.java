package io.kubevirt.hco.demo;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.gate.OperatorConditionWriter;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.GateAudit;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.e2e.ComponentOperatorProcess;
import io.kubevirt.hco.e2e.StackTruth;
import io.kubevirt.hco.simulator.ComponentCrds;

/**
 * The operator's main job on an embedded default: a local Kubernetes API (the fabric8 API server
 * in CRUD mode, in this process), the operator as its own process (the built jar, as a pod would
 * run it), the four component operators as their own processes (the simulator module's
 * ComponentOperatorMain, configured as the real images are), and this class playing OLM. It walks
 * through install and an upgrade 1.0.0 → 2.0.0 with one component silent for a while, and prints
 * what OLM would read at each step. Exit code 0 only if the gate opened at the end and the audit
 * found no Upgradeable=True while the stack was converging.
 */
public final class DemoMain {

    static final String NS = "kubevirt-hyperconverged";
    /** Pacing for a human watching the timeline; nothing waits on these for correctness. */
    static final Duration BETWEEN_COMPONENTS = Duration.ofMillis(1500);
    static final Duration SILENT_PERIOD = Duration.ofSeconds(6);
    static final Instant START = Instant.now();

    /** Held strongly: java.util.logging forgets the level of a logger nobody references. */
    private static final java.util.logging.Logger MOCK_SERVER_LOG = java.util.logging.Logger
            .getLogger("io.fabric8.mockwebserver");

    public static void main(String[] args) throws Exception {
        // the embedded API server logs every request at INFO; the demo's own lines are what matter
        MOCK_SERVER_LOG.setLevel(java.util.logging.Level.WARNING);
        Path jar = Path.of(args.length > 0 ? args[0] : "target/quarkus-app/quarkus-run.jar");
        Path work = Files.createDirectories(Path.of(args.length > 1 ? args[1] : "target/demo"));
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " not found: build it first (mvn package)");
        }
        KubernetesMockServer api = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        api.init(InetAddress.getLoopbackAddress(), 0);
        int exit = 1;
        try (KubernetesClient client = api.createClient()) {
            exit = run(client, jar, work);
        } finally {
            api.destroy();
        }
        System.exit(exit);
    }

    private static int run(KubernetesClient client, Path jar, Path work) throws Exception {
        Path kubeconfig = kubeconfig(work, client.getMasterUrl().toString());
        Cluster cluster = new Cluster(client, NS);
        say("local Kubernetes API at " + client.getMasterUrl() + " (kubeconfig: " + kubeconfig + ")");
        ComponentCrds.install(client);
        cluster.createOperatorCondition("hco-operator.v1.0.0");
        say("OLM: installed CSV hco-operator.v1.0.0 with an empty OperatorCondition");

        ComponentOperators components = new ComponentOperators(kubeconfig, work);
        io.kubevirt.hco.simulator.StackHistory.Judge truth = StackTruth::healthy;
        try (components; GateAudit auditV1 = new GateAudit(cluster, NS, "hco-operator.v1.0.0", truth, "1.0.0");
                var timelineV1 = timeline(cluster, "hco-operator.v1.0.0")) {
            for (String image : IMAGES) {
                components.run(image, "1.0.0", null);
            }
            Process v1 = operator(jar, kubeconfig, work, "1.0.0");
            try {
                waitFor("v1 holds the gate", Duration.ofSeconds(60), () -> cluster.upgradeable("hco-operator.v1.0.0") != null);
                step("install: create the HyperConverged " + NS + "/" + HyperConverged.SINGLETON_NAME);
                cluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
                waitFor("the installed stack to be upgradeable", Duration.ofSeconds(60),
                        () -> "True".equals(status(cluster, "hco-operator.v1.0.0")));
            } finally {
                stop(v1);
            }

            step("upgrade: OLM replaces CSV v1.0.0 by v2.0.0 (new OperatorCondition, new pods)");
            cluster.createOperatorCondition("hco-operator.v2.0.0");
            try (GateAudit auditV2 = new GateAudit(cluster, NS, "hco-operator.v2.0.0", truth, "2.0.0");
                    var timelineV2 = timeline(cluster, "hco-operator.v2.0.0")) {
                Process v2 = operator(jar, kubeconfig, work, "2.0.0");
                try {
                    waitFor("v2 to take the gate", Duration.ofSeconds(60),
                            () -> cluster.upgradeable("hco-operator.v2.0.0") != null);
                    step("component operators are replaced one by one; the new virt-operator stays silent");
                    components.run("virt-operator", "2.0.0", "silent");
                    for (String image : IMAGES.subList(1, IMAGES.size())) {
                        pace(BETWEEN_COMPONENTS);
                        components.run(image, "2.0.0", null);
                    }
                    pace(SILENT_PERIOD);
                    requireClosed(cluster);
                    step("virt-operator's container restarts, rolls out KubeVirt 2.0.0 and reports it");
                    components.run("virt-operator", "2.0.0", null);
                    waitFor("the upgraded stack to be upgradeable", Duration.ofSeconds(60),
                            () -> "True".equals(status(cluster, "hco-operator.v2.0.0")));
                    String recorded = io.kubevirt.hco.snapshot.StackSnapshots
                            .recordedVersion(cluster.hyperConverged(HyperConverged.SINGLETON_NAME));
                    say("HyperConverged status.versions records operator " + recorded);
                } finally {
                    stop(v2);
                }
                List<String> violations = new java.util.ArrayList<>(auditV1.violations());
                violations.addAll(auditV2.violations());
                step("audit of every OperatorCondition revision: " + (auditV1.revisions().size()
                        + auditV2.revisions().size()) + " revisions, " + violations.size() + " violations");
                violations.forEach(v -> say("VIOLATION: " + v));
                return violations.isEmpty() ? 0 : 1;
            }
        }
    }

    static final List<String> IMAGES = List.of("virt-operator", "cdi-operator", "cluster-network-addons-operator",
            "ssp-operator");

    /**
     * The component operators as their own processes (the simulator module's ComponentOperatorMain,
     * one per operator, configured by the env its real image reads); a new version replaces the
     * process, as a new image replaces the pod.
     */
    static final class ComponentOperators implements AutoCloseable {
        private final Path kubeconfig;
        private final Path work;
        private final Map<String, ComponentOperatorProcess> running = new java.util.LinkedHashMap<>();

        ComponentOperators(Path kubeconfig, Path work) {
            this.kubeconfig = kubeconfig;
            this.work = work;
        }

        /** {@code image} at {@code version} replaces whatever ran before; {@code behaviour} null: healthy. */
        void run(String image, String version, String behaviour) throws IOException, InterruptedException {
            ComponentOperatorProcess previous = running.remove(image);
            if (previous != null) {
                previous.close();
            }
            var component = io.kubevirt.hco.simulator.SimulatedComponent.forImage(image).orElseThrow();
            Map<String, String> env = new HashMap<>(Map.of(component.versionEnv(), version,
                    "SIMULATED_UPGRADE_SECONDS", "2"));
            if (behaviour != null) {
                env.put("SIMULATED_BEHAVIOUR", behaviour);
            }
            String name = image + "-" + version + (behaviour == null ? "" : "-" + behaviour);
            running.put(image, ComponentOperatorProcess.start(name, image, kubeconfig, env, work));
            say(image + " " + version + (behaviour == null ? "" : " (" + behaviour + ")") + " started (log: "
                    + work.resolve(name + ".log") + ")");
        }

        @Override
        public void close() throws InterruptedException {
            for (ComponentOperatorProcess p : running.values()) {
                p.close();
            }
        }
    }

    private static void requireClosed(Cluster cluster) {
        if ("True".equals(status(cluster, "hco-operator.v2.0.0"))) {
            throw new IllegalStateException("the gate opened while KubeVirt was silent");
        }
        say("while KubeVirt is silent OLM reads: Upgradeable=" + status(cluster, "hco-operator.v2.0.0") + " ("
                + cluster.upgradeable("hco-operator.v2.0.0").get("reason") + ")");
    }

    private static String status(Cluster cluster, String oc) {
        Map<String, Object> c = cluster.upgradeable(oc);
        return c == null ? null : String.valueOf(c.get("status"));
    }

    /** Prints every change of the Upgradeable condition, as OLM would read it. */
    private static AutoCloseable timeline(Cluster cluster, String oc) {
        String[] last = { "" };
        var watch = cluster.client().genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(NS)
                .withName(oc).watch(new Watcher<GenericKubernetesResource>() {
                    @Override
                    public void eventReceived(Action action, GenericKubernetesResource resource) {
                        Map<String, Object> c = cluster.upgradeable(oc);
                        if (c == null) {
                            return;
                        }
                        String line = "Upgradeable=" + c.get("status") + " " + c.get("reason") + ": " + c.get("message");
                        if (!line.equals(last[0])) {
                            last[0] = line;
                            say("OLM reads " + oc + ": " + line);
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                });
        return watch::close;
    }

    private static Process operator(Path jar, Path kubeconfig, Path work, String version) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(javaBinary(), "-jar", jar.toAbsolutePath().toString());
        Map<String, String> env = pb.environment();
        env.put("KUBECONFIG", kubeconfig.toAbsolutePath().toString());
        env.put("OPERATOR_NAMESPACE", NS);
        env.put("OPERATOR_VERSION", version);
        env.put("OPERATOR_CONDITION_NAME", "hco-operator.v" + version);
        env.put("KUBEVIRT_VERSION", version);
        env.put("CDI_VERSION", version);
        env.put("NETWORK_ADDONS_VERSION", version);
        env.put("SSP_VERSION", version);
        env.put("HCO_STABILIZATION_WINDOW", "2s");
        env.put("HCO_MANAGEMENT_PORT", Integer.toString(freePort()));
        env.put("HCO_HTTP_PORT", Integer.toString(freePort()));
        File log = work.resolve("operator-v" + version + ".log").toFile();
        pb.redirectErrorStream(true).redirectOutput(log);
        say("starting operator " + version + " (java -jar " + jar + ", log: " + log + ", management port "
                + env.get("HCO_MANAGEMENT_PORT") + ")");
        return pb.start();
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
        }
        say("operator process stopped (exit " + p.exitValue() + ")");
    }

    private static Path kubeconfig(Path work, String url) throws IOException {
        Path file = work.resolve("kubeconfig");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: local
                  cluster:
                    server: %s
                contexts:
                - name: local
                  context:
                    cluster: local
                    user: demo
                    namespace: %s
                current-context: local
                users:
                - name: demo
                  user:
                    token: demo
                """.formatted(url, NS));
        return file;
    }

    private static void waitFor(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("timed out waiting for " + what);
            }
            Thread.sleep(100);
        }
    }

    private static void pace(Duration d) throws InterruptedException {
        Thread.sleep(d.toMillis());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void step(String text) {
        say("==== " + text);
    }

    static synchronized void say(String text) {
        System.out.printf("[%6.1fs] %s%n", Duration.between(START, Instant.now()).toMillis() / 1000.0, text);
    }
}
