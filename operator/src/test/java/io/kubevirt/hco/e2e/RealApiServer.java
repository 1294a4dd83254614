package io.kubevirt.hco.e2e;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * A real etcd and kube-apiserver on loopback, on free ports, with TLS (self-signed serving cert),
 * RBAC authorization, a static admin token and service-account token signing. Everything lives in
 * one temporary directory; {@link #close()} (and a shutdown hook, should the JVM die first) kills
 * both processes, so nothing is left behind when a test fails.
 */
public final class RealApiServer implements AutoCloseable {

    static final String ADMIN_TOKEN = "e2e-admin-token";

    private final E2eBinaries binaries = E2eBinaries.get();
    private final Path dir;
    private int etcdPort;
    private int etcdPeerPort;
    private final int apiPort;
    private final List<Process> processes = new ArrayList<>();
    private final Thread reaper = new Thread(this::killAll, "e2e-reaper");
    private Process etcd;
    private Process apiServer;
    private KubernetesClient admin;

    public RealApiServer() throws IOException {
        dir = Files.createTempDirectory("hco-e2e-");
        etcdPort = freePort();
        etcdPeerPort = freePort();
        apiPort = freePort();
        Runtime.getRuntime().addShutdownHook(reaper);
    }

    public RealApiServer start() throws IOException, InterruptedException {
        writeCredentials();
        // a free port can be taken by another process before etcd binds it (a CI run once lost its
        // API server that way): etcd is started and checked first, on fresh ports if it died
        for (int attempt = 1; !startEtcd(); attempt++) {
            if (attempt == 3) {
                throw new IOException("etcd did not become healthy; its log ends:\n" + tail(dir.resolve("etcd.log"), 15));
            }
            etcdPort = freePort();
            etcdPeerPort = freePort();
            deleteTree(dir.resolve("etcd")); // its member was named with the old peer URL
        }
        startApiServer();
        return this;
    }

    /** Starts etcd and waits for its /health; false when it exited (then it can be tried again). */
    private boolean startEtcd() throws IOException, InterruptedException {
        etcd = launch("etcd", List.of(binaries.etcd().toString(), "--data-dir", dir.resolve("etcd").toString(),
                "--listen-client-urls", "http://127.0.0.1:" + etcdPort,
                "--advertise-client-urls", "http://127.0.0.1:" + etcdPort,
                "--listen-peer-urls", "http://127.0.0.1:" + etcdPeerPort,
                "--initial-advertise-peer-urls", "http://127.0.0.1:" + etcdPeerPort,
                "--initial-cluster", "default=http://127.0.0.1:" + etcdPeerPort,
                "--log-level", "warn"));
        var http = java.net.http.HttpClient.newHttpClient();
        var health = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + etcdPort + "/health"))
                .timeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plusSeconds(60);
        while (Instant.now().isBefore(deadline)) {
            if (!etcd.isAlive()) {
                processes.remove(etcd);
                return false;
            }
            try {
                if (http.send(health, java.net.http.HttpResponse.BodyHandlers.ofString()).body().contains("\"true\"")) {
                    return true;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(50);
        }
        throw new IOException("etcd not healthy within 60 s; its log ends:\n" + tail(dir.resolve("etcd.log"), 15));
    }

    private void startApiServer() throws IOException, InterruptedException {
        apiServer = launchApiServer("kube-apiserver", apiPort);
        awaitReady(apiServer, apiPort, "kube-apiserver", Duration.ofSeconds(60));
    }

    /** A kube-apiserver of this cluster (its etcd, certificates, tokens and flags) on {@code port}. */
    private Process launchApiServer(String name, int port) throws IOException {
        return launch(name, List.of(binaries.kubeApiServer().toString(),
                "--etcd-servers=http://127.0.0.1:" + etcdPort,
                "--secure-port=" + port, "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
                "--cert-dir=" + dir.resolve("certs"),
                "--service-cluster-ip-range=10.0.0.0/24",
                // Services reached through their endpoints (no kube-proxy routes the ClusterIPs here):
                // admission webhooks and aggregated APIs of operators the pod runner runs on this host
                "--enable-aggregator-routing=true",
                // as clusters run: virt-handler and the network plugins' DaemonSets are privileged
                "--allow-privileged=true",
                "--requestheader-client-ca-file=" + dir.resolve("front-proxy/ca.crt"),
                "--requestheader-allowed-names=front-proxy-client",
                "--requestheader-username-headers=X-Remote-User",
                "--requestheader-group-headers=X-Remote-Group",
                "--requestheader-extra-headers-prefix=X-Remote-Extra-",
                "--proxy-client-cert-file=" + dir.resolve("front-proxy/client.crt"),
                "--proxy-client-key-file=" + dir.resolve("front-proxy/client.key"),
                "--authorization-mode=RBAC",
                "--token-auth-file=" + dir.resolve("tokens.csv"),
                "--service-account-issuer=https://kubernetes.default.svc",
                "--service-account-key-file=" + dir.resolve("sa.pub"),
                "--service-account-signing-key-file=" + dir.resolve("sa.key"),
                "--api-audiences=https://kubernetes.default.svc",
                "--audit-log-path=" + dir.resolve("audit.log"),
                "--audit-policy-file=" + dir.resolve("audit-policy.yaml"),
                // mutating admission policies (beta in 1.34): tests rewrite component specs with them
                "--feature-gates=MutatingAdmissionPolicy=true",
                "--runtime-config=admissionregistration.k8s.io/v1beta1=true",
                "-v=0"));
    }

    /** Stops the API server (etcd keeps running), waits {@code down}, and starts it again on the same port. */
    public void outage(Duration down) throws IOException, InterruptedException {
        outage(down, null);
    }

    /**
     * As above; meanwhile, {@code meanwhile} makes changes through a second API server of the same
     * cluster (same etcd, another port), as an administrator or another controller would through
     * another replica of the API server: what the operator's watches miss, they must catch up on.
     */
    public void outage(Duration down, java.util.function.Consumer<KubernetesClient> meanwhile)
            throws IOException, InterruptedException {
        Instant back = Instant.now().plus(down);
        apiServer.destroy();
        apiServer.waitFor(20, TimeUnit.SECONDS);
        processes.remove(apiServer);
        if (meanwhile != null) {
            int port = freePort();
            Process other = launchApiServer("kube-apiserver-other", port);
            try {
                awaitReady(other, port, "kube-apiserver-other", Duration.ofSeconds(60));
                try (KubernetesClient client = new KubernetesClientBuilder()
                        .withConfig(new ConfigBuilder(config(ADMIN_TOKEN)).withMasterUrl("https://127.0.0.1:" + port).build())
                        .build()) {
                    meanwhile.accept(client);
                }
            } finally {
                other.destroy();
                other.waitFor(20, TimeUnit.SECONDS);
                processes.remove(other);
            }
        }
        long left = Duration.between(Instant.now(), back).toMillis();
        if (left > 0) {
            Thread.sleep(left);
        }
        startApiServer();
    }

    public KubernetesClient admin() {
        if (admin == null) {
            admin = new KubernetesClientBuilder().withConfig(config(ADMIN_TOKEN)).build();
        }
        return admin;
    }

    public Config config(String token) {
        return new ConfigBuilder().withMasterUrl(url()).withOauthToken(token).withTrustCerts(true)
                .withDisableHostnameVerification(true).withRequestTimeout(10_000).build();
    }

    public String url() {
        return "https://127.0.0.1:" + apiPort;
    }

    public Path dir() {
        return dir;
    }

    public Path auditLog() {
        return dir.resolve("audit.log");
    }

    /** A kubeconfig that authenticates with {@code token}: what a pod's mounted ServiceAccount gives. */
    /**
     * The CA that verifies the API server's serving certificate (kube-apiserver's self-signed pair in
     * --cert-dir, whose file carries its CA): what a pod finds as the ServiceAccount's ca.crt. Found
     * from a kubeconfig this server wrote, which sits in its directory.
     */
    static Path servingCaBeside(Path kubeconfig) {
        return kubeconfig.toAbsolutePath().getParent().resolve("certs/apiserver.crt");
    }

    public Path kubeconfig(String name, String token, String namespace) throws IOException {
        Path file = dir.resolve(name + ".kubeconfig");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: e2e
                  cluster:
                    server: %s
                    insecure-skip-tls-verify: true
                contexts:
                - name: e2e
                  context:
                    cluster: e2e
                    user: %s
                    namespace: %s
                current-context: e2e
                users:
                - name: %s
                  user:
                    token: %s
                """.formatted(url(), name, namespace, name, token));
        return file;
    }

    /**
     * The front proxy's CA and client certificate, as every cluster's API server has them: the API
     * server publishes that CA in kube-system/extension-apiserver-authentication, which
     * virt-operator's own webhook needs to serve at all (it answers TLS "internal error" without it),
     * and uses the certificate to call aggregated APIs.
     */
    private void frontProxyCertificates() throws IOException {
        Path certs = Files.createDirectories(dir.resolve("front-proxy"));
        run(certs, "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                "/CN=front-proxy-ca", "-keyout", "ca.key", "-out", "ca.crt");
        run(certs, "openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=front-proxy-client",
                "-keyout", "client.key", "-out", "client.csr");
        run(certs, "openssl", "x509", "-req", "-in", "client.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
                "-CAcreateserial", "-days", "2", "-out", "client.crt");
    }

    private static void run(Path dir, String... command) throws IOException {
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IOException(String.join(" ", command) + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private void writeCredentials() throws IOException {
        Files.writeString(dir.resolve("tokens.csv"), ADMIN_TOKEN + ",e2e-admin,e2e-admin,\"system:masters\"\n");
        KeyPairGenerator generator;
        try {
            generator = KeyPairGenerator.getInstance("RSA");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        generator.initialize(2048);
        KeyPair keys = generator.generateKeyPair();
        Files.writeString(dir.resolve("sa.key"), pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
        Files.writeString(dir.resolve("sa.pub"), pem("PUBLIC KEY", keys.getPublic().getEncoded()));
        frontProxyCertificates();
        // request-level records of every write, and of service accounts' reads (a denied read is
        // how a missing permission shows): what the write counts and the RBAC tests read
        Files.writeString(dir.resolve("audit-policy.yaml"), """
                apiVersion: audit.k8s.io/v1
                kind: Policy
                omitStages: ["RequestReceived"]
                rules:
                - level: Metadata
                  verbs: ["create", "update", "patch", "delete"]
                - level: Metadata
                  userGroups: ["system:serviceaccounts"]
                - level: None
                """);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    /** Starts a process that lives as long as this cluster; its output goes to {@code <dir>/<name>.log}. */
    Process launch(String name, List<String> command) throws IOException {
        return launch(name, command, java.util.Map.of());
    }

    Process launch(String name, List<String> command, java.util.Map<String, String> env) throws IOException {
        File log = dir.resolve(name + ".log").toFile();
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log));
        pb.environment().putAll(env);
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    private void awaitReady(Process server, int port, String name, Duration timeout) throws InterruptedException, IOException {
        Instant deadline = Instant.now().plus(timeout);
        try (KubernetesClient probe = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(config(ADMIN_TOKEN)).withMasterUrl("https://127.0.0.1:" + port).build()).build()) {
            while (Instant.now().isBefore(deadline)) {
                if (!server.isAlive()) {
                    throw new IOException(name + " exited with " + server.exitValue() + "; its log ends:\n"
                            + tail(dir.resolve(name + ".log"), 15));
                }
                try {
                    String ready = probe.raw("/readyz");
                    if ("ok".equals(ready)) {
                        return;
                    }
                } catch (RuntimeException notYet) {
                    // not listening yet
                }
                Thread.sleep(100);
            }
        }
        throw new IOException(name + " not ready within " + timeout + "; see " + dir.resolve(name + ".log"));
    }

    private void killAll() {
        for (Process p : processes) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : processes) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close();
        }
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running already
        }
        if (!Boolean.getBoolean("hco.e2e.keep")) {
            try (var paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            } catch (IOException e) {
                // a leftover temp dir is harmless
            }
        }
    }

    private static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (Files.exists(root)) {
            try (var paths = Files.walk(root)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
