package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HTTPGetAction;

/**
 * A real component operator's container run by the pod runner: the operator built from its Go
 * module (e2e/bin/build.sh) for the image it stands for, with the container's command and args,
 * the pod's env, its ServiceAccount's kubeconfig and, for readiness, the container's own
 * readinessProbe (HTTP or HTTPS on the loopback address), as a kubelet would probe it.
 */
final class RealComponentProcess implements PodProcess {

    /** The component operator images whose real operator the suite can run, by repository name. */
    enum Kind {
        VIRT_OPERATOR("virt-operator"), NETWORK_ADDONS("cluster-network-addons-operator");

        final String repository;

        Kind(String repository) {
            this.repository = repository;
        }

        static Optional<Kind> forImage(String image) {
            String repository = io.kubevirt.hco.simulator.SimulatedComponent.repositoryName(image);
            for (Kind k : values()) {
                if (k.repository.equals(repository)) {
                    return Optional.of(k);
                }
            }
            return Optional.empty();
        }
    }

    private static final HttpClient PROBE = PinnedTls.unverified();

    private final Process process;
    private final Container container;
    private final Path log;

    private RealComponentProcess(Process process, Container container, Path log) {
        this.process = process;
        this.container = container;
        this.log = log;
    }

    static RealComponentProcess start(Kind kind, String pod, Container container, Path kubeconfig,
            Map<String, String> podEnv, Path dir) throws IOException {
        E2eBinaries.RealComponents real = E2eBinaries.get().realComponents();
        List<String> command = new ArrayList<>();
        Path workDir = Files.createDirectories(dir.resolve(pod + "-workdir"));
        switch (kind) {
            case VIRT_OPERATOR -> {
                command.add(real.virtOperator(kubeVirtVersion(podEnv)).toString());
                // the image's command is "virt-operator" (also for the install strategy Job's
                // "virt-operator --dump-install-strategy"): the binary is ours, its arguments the pod's
                if (container.getCommand() != null && container.getCommand().size() > 1) {
                    command.addAll(container.getCommand().subList(1, container.getCommand().size()));
                }
                command.addAll(container.getArgs() == null ? List.of() : container.getArgs());
                command.addAll(List.of("--kubeconfig", kubeconfig.toAbsolutePath().toString()));
            }
            case NETWORK_ADDONS -> {
                command.add(real.cnaoManager().toString());
                command.addAll(container.getArgs() == null ? List.of() : container.getArgs());
                // the manager renders its operands from ./data, shipped in its image
                Path data = workDir.resolve("data");
                if (!Files.exists(data)) {
                    Files.createSymbolicLink(data, real.cnaoData());
                }
            }
        }
        ProcessBuilder pb = new ProcessBuilder(inPodMounts(command, serviceAccount(workDir, podEnv, kubeconfig)))
                .directory(workDir.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("KUBERNETES_") || k.equals("KUBECONFIG") || k.startsWith("HCO_")
                || k.startsWith("OPERATOR_") || k.endsWith("_VERSION") || k.endsWith("_IMAGE"));
        podEnv.forEach((k, v) -> env.put(k, v == null ? "" : v));
        env.put("KUBECONFIG", kubeconfig.toAbsolutePath().toString());
        env.put("HOSTNAME", pod);
        Path logFile = dir.resolve(pod + ".log");
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        return new RealComponentProcess(pb.start(), container, logFile);
    }

    /**
     * The KubeVirt version a virt-operator pod is told to be: its KUBEVIRT_VERSION, or, in the
     * install-strategy Job's pod (which has none), the version in the deployment config its operator
     * passed it (TARGET_DEPLOYMENT_CONFIG). An upgrade's new operator runs its own strategy Job.
     */
    static String kubeVirtVersion(Map<String, String> podEnv) throws IOException {
        String version = podEnv.get("KUBEVIRT_VERSION");
        if (version != null && !version.isEmpty()) {
            return version;
        }
        String config = podEnv.get("TARGET_DEPLOYMENT_CONFIG");
        String fromConfig = config == null ? ""
                : new com.fasterxml.jackson.databind.ObjectMapper().readTree(config).path("kubeVirtVersion").asText();
        if (!fromConfig.isEmpty()) {
            return fromConfig;
        }
        throw new IllegalStateException("a virt-operator pod with neither KUBEVIRT_VERSION nor a kubeVirtVersion in"
                + " TARGET_DEPLOYMENT_CONFIG: which binary to run is unknown; its env: " + podEnv.keySet());
    }

    /** Where a pod's ServiceAccount volume is mounted; virt-operator reads its namespace only from there. */
    static final String SERVICE_ACCOUNT = "/var/run/secrets/kubernetes.io/serviceaccount";

    /** The pod's ServiceAccount volume: its namespace and token (the kubeconfig carries the same token). */
    private static Path serviceAccount(Path workDir, Map<String, String> podEnv, Path kubeconfig) throws IOException {
        Path dir = Files.createDirectories(workDir.resolve("serviceaccount"));
        Files.writeString(dir.resolve("namespace"), podEnv.getOrDefault("POD_NAMESPACE", namespaceOf(kubeconfig)));
        return dir;
    }

    private static String namespaceOf(Path kubeconfig) throws IOException {
        for (String line : Files.readAllLines(kubeconfig)) {
            String t = line.trim();
            if (t.startsWith("namespace:")) {
                return t.substring("namespace:".length()).trim();
            }
        }
        throw new IllegalStateException(kubeconfig + " names no namespace");
    }

    /**
     * The command in a mount namespace of its own with the pod's ServiceAccount volume where a
     * container has it, as the container runtime does (needs root, as the suite has here).
     */
    private static List<String> inPodMounts(List<String> command, Path serviceAccount) throws IOException {
        Files.createDirectories(Path.of(SERVICE_ACCOUNT));
        List<String> wrapped = new ArrayList<>(List.of("unshare", "--mount", "--propagation", "private", "sh", "-c",
                "mount --bind \"$0\" " + SERVICE_ACCOUNT + " && exec \"$@\"", serviceAccount.toString()));
        wrapped.addAll(command);
        return wrapped;
    }

    @Override
    public boolean alive() {
        return process.isAlive();
    }

    @Override
    public Integer exitCode() {
        return process.isAlive() ? null : process.exitValue();
    }

    /** The container's readinessProbe (httpGet), as the kubelet runs it; no probe: running is ready. */
    @Override
    public boolean ready() {
        if (!process.isAlive()) {
            return false;
        }
        HTTPGetAction get = container.getReadinessProbe() == null ? null : container.getReadinessProbe().getHttpGet();
        if (get == null) {
            return true;
        }
        int port = get.getPort().getIntVal() != null ? get.getPort().getIntVal() : namedPort(get.getPort().getStrVal());
        String scheme = get.getScheme() == null ? "http" : get.getScheme().toLowerCase();
        try {
            HttpResponse<Void> r = PROBE.send(HttpRequest.newBuilder(URI.create(scheme + "://127.0.0.1:" + port
                    + (get.getPath() == null ? "/" : get.getPath()))).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding());
            return r.statusCode() >= 200 && r.statusCode() < 400;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private int namedPort(String name) {
        return container.getPorts().stream().filter(p -> name.equals(p.getName())).map(ContainerPort::getContainerPort)
                .findFirst().orElseThrow(() -> new IllegalStateException("no container port " + name));
    }

    Path log() {
        return log;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
