package io.kubevirt.hco.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.kubevirt.hco.Repo;
import io.kubevirt.hco.e2e.DocumentedCommandsIT;

/**
 * Every command the README and docs/ show is run by the suite, so that none can go stale: by
 * DocumentedCommandsIT (as written), by a script or test that contains it word for word, or it is
 * listed here with the reason it is not run.
 */
class DocumentedCommandsTest {

    /** Commands a file of the suite runs as written: the file must contain the command. */
    static final Map<String, String> RUN_BY = Map.of("mvn -B verify", ".ci/run");

    /** Commands the suite runs in another form, and how. */
    static final Map<String, String> RUN_AS = Map.of(
            "mvn -B test", "the test phase of `mvn -B verify` (.ci/run): the same surefire run",
            "mvn -B test -Dtest=GateModelTest", "the test phase of `mvn -B verify`, which runs GateModelTest at 5,000 schedules",
            "kubectl get hco -n kubevirt-hyperconverged -o wide",
            "DocumentedCommandsIT runs it at the stored version (hyperconvergeds.v1beta1.hco.kubevirt.io): its pod runner "
                    + "cannot route the API server to the conversion webhook kubectl's v1 needs; ConversionIT proves it",
            "bin/mvn39 quarkus:dev", "DevModeProcess starts `bin/mvn39 -B quarkus:dev` from the repository root; DevUiBrowserIT drives it",
            "packaging/native/build.sh",
            "DocumentedCommandsIT runs it with -Dquarkus.native.sources-only=true (everything but native-image's "
                    + "10 minutes and 5 GB, over the CI budget)");

    /** Commands not run by the suite, and why. */
    static final Map<String, String> NOT_RUN = Map.ofEntries(
            Map.entry("operator-sdk run bundle <registry>/hco-operator-bundle:1.0.0 -n kubevirt-hyperconverged",
                    "needs a registry serving the bundle image; RealOlmIT installs the same bundle through real OLM"),
            Map.entry("docker build -f bundle/bundle.Dockerfile -t <registry>/hco-operator-bundle:1.0.0 bundle/",
                    "no container engine here (issue #32 builds the images without one)"),
            Map.entry("docker push <registry>/hco-operator-bundle:1.0.0", "no container engine nor registry here"),
            Map.entry("mvn -B test -Dtest=GateModelTest -Dhco.model.schedules=100000", "the long run: about 4 minutes"),
            Map.entry("mvn -B test -Dtest=GateModelTest -Dhco.model.seed=<n>", "the default run with another seed"),
            Map.entry("mvn -B -Pmutation test", "mutation testing: minutes, a report, no verdict"),
            Map.entry("mvn -B test -Dtest='Fuzzed*Test' -Dhco.fuzz.cases=100000", "the fuzzers' long run"),
            Map.entry("bin/bench …", "the benchmark: 20 to 50 minutes, figures, no verdict"),
            Map.entry("packaging/native/e2e.sh", "the native build (10 minutes, 5 GB) and its e2e run: outside the CI budget"),
            Map.entry("mvn -B -q install -DskipTests -pl simulator",
                    "by-hand start of one simulated operator; the pod runner starts the same main class in every e2e test"),
            Map.entry("KUBECONFIG=<kubeconfig whose context names the namespace> …", "the same by-hand start"));

    @Test
    void everyDocumentedCommandIsRunOrSaysWhyNot() throws IOException {
        List<String> unaccounted = new ArrayList<>();
        for (var doc : DocumentedCommands.all().entrySet()) {
            for (String command : doc.getValue()) {
                if (!DocumentedCommandsIT.RUN.contains(command) && !RUN_BY.containsKey(command)
                        && !RUN_AS.containsKey(command) && !notRun(command)) {
                    unaccounted.add(doc.getKey() + ": " + command);
                }
            }
        }
        assertThat(unaccounted).as("documented commands no test runs (run them, or say why not here)").isEmpty();
    }

    @Test
    void theFilesSaidToRunACommandContainIt() throws IOException {
        for (var e : RUN_BY.entrySet()) {
            assertThat(Files.readString(Repo.path(e.getValue()))).as(e.getValue()).contains(e.getKey());
        }
    }

    @Test
    void everyListedCommandIsStillDocumented() throws IOException {
        List<String> documented = DocumentedCommands.all().values().stream().flatMap(List::stream).toList();
        for (String command : DocumentedCommandsIT.RUN) {
            assertThat(documented).as("DocumentedCommandsIT runs a command no doc shows").contains(command);
        }
        for (String command : RUN_BY.keySet()) {
            assertThat(documented).contains(command);
        }
    }

    @Test
    void theExtractionJoinsContinuationsAndDropsComments() {
        String md = "Text\n\n    helm install a b \\\n      --set x=1\n    mvn -B test   # fast\n\n```yaml\nkind: X\n```\n";
        assertThat(DocumentedCommands.of(md)).containsExactly("helm install a b --set x=1", "mvn -B test");
    }

    /** Listed as not run: word for word, or by the prefix before a trailing " …". */
    private static boolean notRun(String command) {
        return NOT_RUN.keySet().stream().anyMatch(k -> k.endsWith(" …") ? command.startsWith(k.substring(0, k.length() - 2))
                : k.equals(command));
    }
}
