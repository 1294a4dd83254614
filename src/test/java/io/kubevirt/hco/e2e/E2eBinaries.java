package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The real etcd and kube-apiserver (and promtool, helm), built from their Go modules by {@code e2e/bin/build.sh} and
 * cached under ~/.cache/hco-operator/e2e-bin. Missing binaries are built on first use.
 */
public record E2eBinaries(Path etcd, Path kubeApiServer, Path olmCrds, Path promtool, Path helm, String etcdVersion,
        String kubeVersion) {

    static final Path CACHE = Path.of(System.getenv().getOrDefault("HCO_E2E_CACHE",
            System.getProperty("user.home") + "/.cache/hco-operator/e2e-bin"));

    private static E2eBinaries resolved;

    public static synchronized E2eBinaries get() {
        if (resolved == null) {
            resolved = resolve();
        }
        return resolved;
    }

    private static E2eBinaries resolve() {
        Path props = CACHE.resolve("current.properties");
        try {
            Properties p = load(props);
            if (p == null || missing(p, "etcd") || missing(p, "kube-apiserver") || missing(p, "promtool") || missing(p, "helm")) {
                build();
                p = load(props);
            }
            return new E2eBinaries(Path.of(p.getProperty("etcd")), Path.of(p.getProperty("kube-apiserver")),
                    Path.of(p.getProperty("olm-crds")), Path.of(p.getProperty("promtool")), Path.of(p.getProperty("helm")), p.getProperty("etcd.version"),
                    p.getProperty("kube-apiserver.version"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + props, e);
        }
    }

    private static boolean missing(Properties p, String binary) {
        String path = p.getProperty(binary);
        return path == null || !Files.isExecutable(Path.of(path));
    }

    private static Properties load(Path file) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        return p;
    }

    private static void build() {
        Path script = Path.of("e2e/bin/build.sh").toAbsolutePath();
        System.out.println("[e2e] building etcd and kube-apiserver with " + script + " (first time only; many minutes)");
        try {
            Process p = new ProcessBuilder("bash", script.toString()).inheritIO().start();
            if (p.waitFor() != 0) {
                throw new IllegalStateException(script + " failed with exit code " + p.exitValue());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + script, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the e2e binaries", e);
        }
    }
}
