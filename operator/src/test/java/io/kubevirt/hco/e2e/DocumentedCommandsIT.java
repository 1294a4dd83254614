package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.kubevirt.hco.Repo;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.StatusCondition;
import io.kubevirt.hco.docs.DocumentedCommands;
import io.kubevirt.hco.simulator.Cluster;

/**
 * The documented commands, run as written: the README's Helm install on a real API server with
 * kube-controller-manager and the e2e pod runner as its kubelet, the demo, and the native build
 * (without native-image's own compile). The builds run in a copy of the tree, so that they do not
 * rebuild what the running suite uses.
 */
public class DocumentedCommandsIT {

    static final String HELM_INSTALL = "helm install hco helm/hco-operator -n kubevirt-hyperconverged --create-namespace "
            + "--wait --set image.repository=<your registry>/hco-operator";
    static final String APPLY = "kubectl apply -n kubevirt-hyperconverged -f packaging/olm/example-hyperconverged.yaml";
    static final String GET = "kubectl get hco -n kubevirt-hyperconverged -o wide";
    /**
     * GET at the stored version: kubectl asks for the preferred one, v1, which the API server
     * converts through the operator's webhook, and the pod runner cannot route the API server to the
     * webhook of two replicas sharing this host (PodRunner; ConversionIT proves the webhook).
     */
    static final String GET_STORED = "kubectl get hyperconvergeds.v1beta1.hco.kubevirt.io -n kubevirt-hyperconverged -o wide";
    static final String DEMO = "mvn -B -Pdemo package";
    static final String NATIVE_BUILD = "packaging/native/build.sh";
    /** The documented commands this test runs word for word (placeholders filled in). */
    public static final Set<String> RUN = Set.of(HELM_INSTALL, APPLY, DEMO);
    static final String NS = "kubevirt-hyperconverged";

    AutoCloseable cluster;
    final List<Path> copies = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        for (Path copy : copies) {
            run(Repo.ROOT, "rm -rf '" + copy + "'", Map.of());
        }
    }

    @Test
    void theReadmesHelmInstallWorksAsWritten() throws Exception {
        assertThat(DocumentedCommands.all().get("README.md")).containsSubsequence(HELM_INSTALL, APPLY, GET);
        ClusterWithKubelet running = ClusterWithKubelet.start(NS, admin -> {
        });
        cluster = running;
        E2eBinaries bin = E2eBinaries.get();
        Map<String, String> env = Map.of("KUBECONFIG", running.kubeconfig.toString(), "PATH",
                bin.helm().getParent() + ":" + bin.kubectl().getParent() + ":" + System.getenv("PATH"));
        assertSucceeds(run(Repo.ROOT, HELM_INSTALL.replace("<your registry>", "registry.example"), env));
        assertSucceeds(run(Repo.ROOT, APPLY, env));
        Cluster stack = new Cluster(running.admin, NS);
        await().atMost(Duration.ofMinutes(3)).until(() -> {
            StatusCondition c = stack.hcoCondition(HyperConverged.SINGLETON_NAME, "Upgradeable");
            return c != null && "True".equals(c.status);
        });
        Run get = run(Repo.ROOT, GET_STORED, env);
        assertSucceeds(get);
        assertThat(get.output()).contains(HyperConverged.SINGLETON_NAME, "True");
    }

    @Test
    void theDemoRunsAsWritten() throws Exception {
        assertThat(DocumentedCommands.all().get("README.md")).contains(DEMO);
        Path copy = copyOfTheTree();
        Run demo = run(copy, DEMO, Map.of());
        assertSucceeds(demo);
        assertThat(demo.output()).contains("OLM reads hco-operator.v2.0.0: Upgradeable=True AsExpected");
    }

    @Test
    void theNativeBuildCommandWorksFromAFreshTree() throws Exception {
        assertThat(DocumentedCommands.all().get("packaging/native/README.md")).contains(NATIVE_BUILD);
        Path copy = copyOfTheTree();
        // everything but native-image's compile (10 minutes, 5 GB): the reactor, the extension's
        // deployment module and Quarkus' native sources, where a fresh clone used to fail
        Run build = run(copy, NATIVE_BUILD + " -Dquarkus.native.sources-only=true", Map.of());
        assertSucceeds(build);
        assertThat(copy.resolve("operator/target/native-sources/native-image.args")).exists();
    }

    record Run(int exit, String output) {
    }

    private static void assertSucceeds(Run r) {
        assertThat(r.exit()).as(r.output().length() > 6000 ? r.output().substring(r.output().length() - 6000) : r.output())
                .isZero();
    }

    static Run run(Path dir, String command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        System.out.printf("[docs] %s → exit %d%n", command, exit);
        return new Run(exit, output);
    }

    /** The files git would check out (tracked, and new ones not ignored), copied: a fresh tree. */
    Path copyOfTheTree() throws IOException, InterruptedException {
        Path copy = Files.createTempDirectory("hco-docs-tree");
        copies.add(copy);
        Run files = run(Repo.ROOT, "git ls-files -z --cached --others --exclude-standard", Map.of());
        assertSucceeds(files);
        List<String> paths = new ArrayList<>(List.of(files.output().split("\0")));
        for (String f : paths) {
            Path source = Repo.ROOT.resolve(f);
            if (f.isEmpty() || !Files.isRegularFile(source)) {
                continue;
            }
            Path target = copy.resolve(f);
            Files.createDirectories(target.getParent());
            Files.copy(source, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
        return copy;
    }
}
