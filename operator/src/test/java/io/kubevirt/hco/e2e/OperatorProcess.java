package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The built operator running as its own process (the jar on its own JVM, or the native executable:
 * {@link OperatorLaunch}), as a pod would run it: the
 * ServiceAccount token for credentials, configuration from environment variables.
 */
public final class OperatorProcess implements PodProcess {

    private static final HttpClient PLAIN = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final int managementPort;
    private final Path log;
    private final HttpClient http;
    private final String scheme;
    private Process process;

    private OperatorProcess(String name, int managementPort, Path log, Path servingCert) throws IOException {
        this.name = name;
        this.managementPort = managementPort;
        this.log = log;
        this.http = servingCert == null ? PLAIN : PinnedTls.client(servingCert);
        this.scheme = servingCert == null ? "http" : "https";
    }

    /** Starts {@code version} with the given kubeconfig; {@code extraEnv} overrides the defaults. */
    public static OperatorProcess start(String name, Path kubeconfig, String namespace, String version,
            Map<String, String> extraEnv, Path logDir) throws IOException {
        return start(name, kubeconfig, namespace, version, extraEnv, logDir, OperatorLaunch.standard());
    }

    /** Like {@link #start(String, Path, String, String, Map, Path)}, started as {@code launch} says. */
    public static OperatorProcess start(String name, Path kubeconfig, String namespace, String version,
            Map<String, String> extraEnv, Path logDir, OperatorLaunch launch) throws IOException {
        Map<String, String> config = new HashMap<>();
        config.put("OPERATOR_NAMESPACE", namespace);
        config.put("OPERATOR_VERSION", version);
        config.put("OPERATOR_CONDITION_NAME", operatorConditionName(version));
        for (String component : new String[] { "KUBEVIRT_VERSION", "CDI_VERSION", "NETWORK_ADDONS_VERSION", "SSP_VERSION" }) {
            config.put(component, version);
        }
        config.put("HCO_STABILIZATION_WINDOW", "1s");
        config.put("HCO_IDLE_POLL_INTERVAL", "1s");
        // a field the component CRDs do not know is an error here, not a warning the API server prunes
        config.put("HCO_FIELD_VALIDATION", "Strict");
        config.put("HOSTNAME", name);
        // short leases keep fail-over scenarios quick; production keeps the long defaults
        config.put("HCO_LEASE_DURATION", "15s");
        config.put("HCO_LEASE_RENEW_DEADLINE", "10s");
        config.put("HCO_LEASE_RETRY_PERIOD", "2s");
        config.putAll(extraEnv);
        return startWithEnv(name, kubeconfig, config, Map.of(), logDir, launch);
    }

    /**
     * Starts the operator with exactly {@code podEnv} (as a pod spec would set it, null = unset) plus the
     * kubeconfig and free ports for this host.
     */
    public static OperatorProcess startWithEnv(String name, Path kubeconfig, Map<String, String> podEnv, Path logDir)
            throws IOException {
        return startWithEnv(name, kubeconfig, podEnv, Map.of(), logDir, OperatorLaunch.standard());
    }

    /**
     * As a kubelet starts the pod's container: {@code mounts} are its volumes (mount path → directory
     * on this host). Run from the image, they are mounted at their paths; run on the host, paths
     * under them in the env are rewritten to the directories.
     */
    static OperatorProcess startInPod(String name, Path kubeconfig, Map<String, String> podEnv,
            Map<String, String> mounts, Path logDir, OperatorLaunch launch) throws IOException {
        return startWithEnv(name, kubeconfig, podEnv, mounts, logDir, launch);
    }

    private static OperatorProcess startWithEnv(String name, Path kubeconfig, Map<String, String> podEnv,
            Map<String, String> mounts, Path logDir, OperatorLaunch launch) throws IOException {
        launch.checkBuilt();
        int port = RealApiServer.freePort();
        String cert = onHost(podEnv.get("HCO_TLS_CERT_FILE"), mounts);
        OperatorProcess op = new OperatorProcess(name, port, logDir.resolve(name + ".log"),
                cert == null ? null : Path.of(cert));
        Map<String, String> config = new HashMap<>();
        podEnv.forEach((k, v) -> config.put(k, launch.inContainer() ? v : onHost(v, mounts)));
        config.put("HCO_MANAGEMENT_PORT", Integer.toString(port));
        config.put("HCO_HTTP_PORT", Integer.toString(RealApiServer.freePort()));
        // pods have a port space each; processes on one host do not (a test may name its own)
        config.putIfAbsent("HCO_WEBHOOK_PORT", Integer.toString(RealApiServer.freePort()));
        ProcessBuilder pb;
        if (launch.inContainer()) {
            try {
                pb = new ProcessBuilder(ContainerRun.command(launch.image(), Files.createDirectories(
                        logDir.resolve(name + ".pod")), kubeconfig, RealApiServer.servingCaBeside(kubeconfig), mounts));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            pb.environment().clear();
            pb.environment().putAll(ContainerRun.environment(launch.image(), name, kubeconfig, config));
        } else {
            pb = new ProcessBuilder(launch.command());
            Map<String, String> env = pb.environment();
            env.keySet().removeIf(k -> k.startsWith("KUBERNETES_") || k.equals("KUBECONFIG") || k.startsWith("HCO_")
                    || k.startsWith("OPERATOR_"));
            config.put("KUBECONFIG", kubeconfig.toAbsolutePath().toString());
            config.forEach((k, v) -> {
                if (v == null) {
                    env.remove(k);
                } else {
                    env.put(k, v);
                }
            });
        }
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(op.log.toFile()));
        op.process = pb.start();
        return op;
    }

    /** A path in the pod (under one of its volumes' mount paths) as the directory on this host. */
    static String onHost(String value, Map<String, String> mounts) {
        if (value == null) {
            return null;
        }
        for (var m : mounts.entrySet()) {
            if (value.startsWith(m.getKey() + "/")) {
                return m.getValue() + value.substring(m.getKey().length());
            }
        }
        return value;
    }

    public static String operatorConditionName(String version) {
        return "hco-operator.v" + version;
    }

    /** The management port on this host (what the pod's "management" port is here). */
    public int managementPort() {
        return managementPort;
    }

    public int readiness() {
        return status(get("/q/health/ready", null));
    }

    public int liveness() {
        return status(get("/q/health/live", null));
    }

    /** The metrics exposition; empty when not answered with 200. */
    public String metrics() {
        String answer = get("/q/metrics", null);
        return status(answer) == 200 ? answer.substring(4) : "";
    }

    /** One series of JOSDK's reconcile counter for the HyperConverged controller (operations.md). */
    static final Pattern RECONCILES_STARTED = Pattern.compile(
            "(?m)^reconciliations_started_total\\{[^}]*controller_name=\"hyperconverged\"[^}]*\\} (\\S+)$");

    /** The reconciles JOSDK counted as started, summed over the counter's series of a metrics page (0 when it has none). */
    public static long reconcilesStarted(String metrics) {
        Matcher m = RECONCILES_STARTED.matcher(metrics);
        double sum = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
        }
        return (long) sum;
    }

    /** The liveness answer as "status body", for diagnosing a failure. */
    public String livenessReport() {
        return get("/q/health/live", null);
    }

    /** GET on the management port with an optional bearer token: "status body" ("-1 reason" when unanswered). */
    public String get(String path, String token) {
        return send(http, scheme, path, token);
    }

    /** A plain-HTTP GET even when the port serves TLS: "status body", or "-1 reason" when refused. */
    public String getPlainHttp(String path) {
        return send(PLAIN, "http", path, null);
    }

    private String send(HttpClient client, String protocol, String path, String token) {
        return get(client, URI.create(protocol + "://127.0.0.1:" + managementPort + path), token);
    }

    /**
     * Like {@link #get(String, String)} for a one-shot check: a request that gets no answer (refused,
     * timed out on a busy machine) is tried again for up to a minute, the scenario's bound; an
     * answer, whatever its status, is returned at once.
     */
    public String getPatiently(String path, String token) {
        return patiently(() -> get(path, token));
    }

    static String patiently(java.util.function.Supplier<String> request) {
        long end = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        String answer = request.get();
        while (answer.startsWith("-1 ") && System.nanoTime() < end) {
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return answer;
            }
            answer = request.get();
        }
        return answer;
    }

    /** GET with an optional bearer token: "status body", or "-1 reason" when nothing answers. */
    static String get(HttpClient client, URI uri, String token) {
        var builder = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> r = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() + " " + r.body();
        } catch (IOException e) {
            return "-1 " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "-1 interrupted";
        }
    }

    private static int status(String answer) {
        return Integer.parseInt(answer.substring(0, answer.indexOf(' ')));
    }

    @Override
    public boolean alive() {
        return process.isAlive();
    }

    /** Ready as the kubelet's probe of /q/health/ready would say. */
    @Override
    public boolean ready() {
        return alive() && readiness() == 200;
    }

    /** Waits until {@link #ready()} (the test fails after {@code seconds}); the one readiness wait of the e2e tests. */
    public OperatorProcess awaitReady(int seconds) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(seconds))
                .pollInterval(java.time.Duration.ofMillis(100)).until(this::ready);
        return this;
    }

    /** SIGKILL: no shutdown hook, no lease release, as when a node dies. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(20, TimeUnit.SECONDS);
    }

    public String log() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /**
     * Why the process is gone, for a bench or test that finds it dead: its exit code (128 + n for
     * signal n) and the last {@code lines} of its log.
     */
    public String deathReport(int lines) throws IOException {
        String[] all = log().split("\n");
        String tail = String.join("\n", java.util.Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
        return name + " exited with " + (process.isAlive() ? "nothing (still running)" : process.exitValue())
                + "; the last " + lines + " lines of " + log + ":\n" + tail;
    }

    /** The JVM's process id (for RSS and CPU time read from /proc). */
    public long pid() {
        return process.pid();
    }

    public String name() {
        return name;
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
