package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.kubevirt.hco.Repo;

/**
 * {@code bin/mvn39 quarkus:dev} from the repository root, as a developer starts it: the operator in dev
 * mode on the dev console's embedded cluster, on free ports, its output in a log file.
 */
final class DevModeProcess implements AutoCloseable {

    final int httpPort;
    final int managementPort;
    final Path log;
    private final Process process;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private DevModeProcess(int httpPort, int managementPort, Path log, Process process) {
        this.httpPort = httpPort;
        this.managementPort = managementPort;
        this.log = log;
        this.process = process;
    }

    static DevModeProcess start(Path logDir) throws IOException {
        Files.createDirectories(logDir);
        int http = RealApiServer.freePort();
        int management = RealApiServer.freePort();
        Path log = logDir.resolve("quarkus-dev.log");
        ProcessBuilder pb = new ProcessBuilder(List.of(Repo.path("bin/mvn39").toString(), "-B", "quarkus:dev",
                "-Ddebug=false", "-Dquarkus.console.enabled=false", "-Dquarkus.analytics.disabled=true",
                "-Dquarkus.http.port=" + http, "-Dquarkus.management.port=" + management))
                .directory(Repo.ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
        // a developer's shell has none of the cluster settings the e2e suite may carry
        pb.environment().keySet().removeIf(k -> k.startsWith("KUBERNETES_") || k.equals("KUBECONFIG")
                || k.startsWith("HCO_") || k.startsWith("OPERATOR_"));
        return new DevModeProcess(http, management, log, pb.start());
    }

    boolean alive() {
        return process.isAlive();
    }

    /** GET on the management port: "status body", or "-1 reason" while nothing answers. */
    String management(String path) {
        return OperatorProcess.get(http, URI.create("http://127.0.0.1:" + managementPort + path), null);
    }

    /** {@link #management(String)} for a one-shot check: no answer is retried for up to a minute. */
    String managementPatiently(String path) {
        return OperatorProcess.patiently(() -> management(path));
    }

    String devUi(String page) {
        return "http://localhost:" + httpPort + "/q/dev-ui/" + page;
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Maven forks the dev-mode JVM: stop the children first, then Maven. */
    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
