package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import io.kubevirt.hco.Repo;

/**
 * The real etcd, kube-apiserver, kube-controller-manager, kubectl and OLM (and Prometheus, promtool, helm), built from their Go modules by {@code e2e/bin/build.sh} and
 * cached under ~/.cache/hco-operator/e2e-bin. Missing binaries are built on first use.
 */
public record E2eBinaries(Path etcd, Path kubeApiServer, Path olmCrds, Path promtool, Path prometheus, Path helm,
        Path prometheusOperatorCrds, Path bundleValidate, Path kubeControllerManager, Path olm, Path kubectl,
        String etcdVersion, String kubeVersion, String olmVersion, RealComponents realComponents) {

    /**
     * The real component operators built from their Go modules, their versions (what they report
     * when told so by their version variable), and KWOK, which plays nodes and operand pods.
     */
    public record RealComponents(Path virtOperator, String virtOperatorVersion, Path virtOperatorPrevious,
            String virtOperatorPreviousVersion, Path cnaoManager, String cnaoVersion, Path cnaoData, Path kwok,
            Path kwokStages, Path certManagerCrds) {

        /** The virt-operator built at {@code version}: a pod runs the binary of the version it is told to be. */
        Path virtOperator(String version) {
            if (virtOperatorVersion.equals(version)) {
                return virtOperator;
            }
            if (virtOperatorPreviousVersion.equals(version)) {
                return virtOperatorPrevious;
            }
            throw new IllegalStateException("a virt-operator pod asks for KubeVirt " + version + ", but e2e/bin/build.sh built "
                    + virtOperatorVersion + " and " + virtOperatorPreviousVersion
                    + " only: set the chart's components.kubevirt.version to one of them");
        }
    }

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
            // the script is idempotent and returns at once when everything is cached; running it every
            // time also rebuilds what changed (a new pinned version, an edited bundle validator)
            build();
            Properties p = load(props);
            for (String binary : new String[] { "etcd", "kube-apiserver", "promtool", "prometheus", "helm", "bundle-validate",
                    "kube-controller-manager", "olm", "kubectl", "virt-operator", "virt-operator.previous", "cnao-manager", "kwok" }) {
                if (p == null || missing(p, binary)) {
                    throw new IllegalStateException(binary + " missing after e2e/bin/build.sh; see " + props);
                }
            }
            return new E2eBinaries(Path.of(p.getProperty("etcd")), Path.of(p.getProperty("kube-apiserver")),
                    Path.of(p.getProperty("olm-crds")), Path.of(p.getProperty("promtool")), Path.of(p.getProperty("prometheus")), Path.of(p.getProperty("helm")),
                    Path.of(p.getProperty("prometheus-operator-crds")), Path.of(p.getProperty("bundle-validate")),
                    Path.of(p.getProperty("kube-controller-manager")), Path.of(p.getProperty("olm")),
                    Path.of(p.getProperty("kubectl")), p.getProperty("etcd.version"), p.getProperty("kube-apiserver.version"), p.getProperty("olm.version"),
                    new RealComponents(Path.of(p.getProperty("virt-operator")), p.getProperty("virt-operator.version"),
                            Path.of(p.getProperty("virt-operator.previous")), p.getProperty("virt-operator.previous.version"),
                            Path.of(p.getProperty("cnao-manager")), p.getProperty("cnao-manager.version"),
                            Path.of(p.getProperty("cnao-data")), Path.of(p.getProperty("kwok")),
                            Path.of(p.getProperty("kwok-stages")), Path.of(p.getProperty("cert-manager-crds"))));
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
        Path script = Repo.path("e2e/bin/build.sh");
        System.out.println("[e2e] " + script + ": builds what is not cached yet (first time: many minutes)");
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
