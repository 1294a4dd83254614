package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.kubevirt.hco.simulator.ComponentOperatorMain;

/**
 * A component operator's container run by the pod runner: the simulator module's runnable for the
 * component the image stands for, with the pod's env (its version env var among it) and its
 * ServiceAccount's kubeconfig, exactly as the real image would get them.
 */
public final class ComponentOperatorProcess implements PodProcess {

    private final Process process;
    private final Path log;

    private ComponentOperatorProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Runs {@code image}'s simulated operator as pod {@code pod} would: its env, its kubeconfig, log in {@code logDir/<pod>.log}. */
    public static ComponentOperatorProcess start(String pod, String image, Path kubeconfig, Map<String, String> podEnv,
            Path logDir) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", classpath(), ComponentOperatorMain.class.getName(), image));
        ProcessBuilder pb = new ProcessBuilder(command);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("KUBERNETES_") || k.equals("KUBECONFIG") || k.startsWith("HCO_")
                || k.startsWith("OPERATOR_") || k.endsWith("_VERSION") || k.startsWith("SIMULATED_"));
        podEnv.forEach((k, v) -> {
            if (v != null) {
                env.put(k, v);
            }
        });
        env.put("KUBECONFIG", kubeconfig.toAbsolutePath().toString());
        // as in a container: the hostname is the pod's name (the simulated operator's Lease identity)
        env.put("HOSTNAME", pod);
        env.putIfAbsent("SIMULATED_UPGRADE_SECONDS", System.getProperty("hco.e2e.component-upgrade-seconds", "5"));
        Path logFile = logDir.resolve(pod + ".log");
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        return new ComponentOperatorProcess(pb.start(), logFile);
    }

    /**
     * This JVM's classpath, whoever launched it: under Maven's exec:java (the demo) the project's test
     * classpath is in the class loaders, not in {@code java.class.path}.
     */
    private static String classpath() {
        List<String> entries = new ArrayList<>();
        for (ClassLoader cl = ComponentOperatorProcess.class.getClassLoader(); cl != null; cl = cl.getParent()) {
            if (cl instanceof java.net.URLClassLoader urls) {
                for (java.net.URL url : urls.getURLs()) {
                    try {
                        entries.add(Path.of(url.toURI()).toString());
                    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
                        // not a file: nothing a JVM could load from
                    }
                }
            }
        }
        entries.add(System.getProperty("java.class.path"));
        return String.join(java.io.File.pathSeparator, entries);
    }

    @Override
    public boolean alive() {
        return process.isAlive();
    }

    /** The simulated operator serves no probe: running is ready, as for a container without a readiness probe. */
    @Override
    public boolean ready() {
        return process.isAlive();
    }

    public String log() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
