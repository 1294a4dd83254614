package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;

/**
 * The Helm chart: its copies of the generated CRD, the generated RBAC rules and the alert rules
 * equal the build's (run with -Dhco.chart.update=true to refresh them); {@code helm lint} passes;
 * the values schema rejects bad values with a clear message; and what {@code helm template} renders
 * is accepted by a real API server.
 */
class HelmChartIT extends E2eScenario {

    static final Path CHART = Path.of("helm/hco-operator");
    private static final ObjectMapper YAML = new ObjectMapper(
            new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    @Test
    void chartCopiesMatchTheBuild() throws Exception {
        Path generatedCrd = ClusterSetup.GENERATED.resolve("hyperconvergeds.hco.kubevirt.io-v1.yml");
        ClusterRole generatedRole = admin.load(Files.newInputStream(ClusterSetup.GENERATED.resolve("kubernetes.yml")))
                .items().stream().filter(ClusterRole.class::isInstance).map(ClusterRole.class::cast).findFirst()
                .orElseThrow();
        Map<Path, String> expected = Map.of(
                CHART.resolve("crds/hyperconvergeds.hco.kubevirt.io-v1.yml"), Files.readString(generatedCrd),
                CHART.resolve("files/rbac-rules.yaml"), YAML.writeValueAsString(
                        YAML.readValue(YAML.writeValueAsString(generatedRole.getRules()), List.class)),
                CHART.resolve("files/hco-operator.rules.yaml"),
                Files.readString(Path.of("monitoring/hco-operator.rules.yaml")));
        for (var e : expected.entrySet()) {
            if (Boolean.getBoolean("hco.chart.update")) {
                Files.writeString(e.getKey(), e.getValue());
            }
            assertThat(Files.exists(e.getKey()) ? YAML.readTree(Files.readString(e.getKey())) : null)
                    .as(e.getKey() + " equals the build's (refresh with -Dhco.chart.update=true)")
                    .isEqualTo(YAML.readTree(e.getValue()));
        }
    }

    @Test
    void lintPassesAndTheValuesSchemaRejectsBadValues() throws Exception {
        assertThat(helm("lint", CHART.toString()).exit()).isZero();
        Result badMode = helm("template", "x", CHART.toString(), "--set", "gate.mode=sometimes");
        assertThat(badMode.exit()).isNotZero();
        assertThat(badMode.output()).contains("/gate/mode").contains("operator-condition");
        Result badWindow = helm("template", "x", CHART.toString(), "--set", "gate.stabilizationWindow=soon");
        assertThat(badWindow.exit()).isNotZero();
        assertThat(badWindow.output()).contains("/gate/stabilizationWindow");
        Result monitoring = helm("template", "x", CHART.toString(), "--set", "metrics.serviceMonitor.enabled=true",
                "--set", "metrics.podMonitor.enabled=true", "--set", "metrics.prometheusRule.enabled=true");
        assertThat(monitoring.exit()).as(monitoring.output()).isZero();
        assertThat(monitoring.output()).contains("kind: ServiceMonitor", "kind: PodMonitor", "kind: PrometheusRule",
                "alert: HCOUpgradeStuck", "{{ $labels.component }} has not converged");
        Result noReplicas = helm("template", "x", CHART.toString(), "--set", "replicas=0");
        assertThat(noReplicas.exit()).isNotZero();
        assertThat(noReplicas.output()).contains("/replicas");
    }

    @Test
    void renderedManifestsAreAcceptedByARealApiServer() throws Exception {
        Result rendered = helm("template", "hco", CHART.toString(), "--namespace", NS, "--include-crds",
                "--set", "metrics.readers={monitoring/prometheus-k8s}");
        assertThat(rendered.exit()).as(rendered.output()).isZero();
        List<HasMetadata> items = admin.load(new ByteArrayInputStream(rendered.output().getBytes(StandardCharsets.UTF_8)))
                .items();
        List<String> kinds = new ArrayList<>();
        for (HasMetadata item : items) {
            admin.resource(item).createOr(existing -> existing.update());
            kinds.add(item.getKind());
        }
        assertThat(kinds).contains("CustomResourceDefinition", "ServiceAccount", "ClusterRole", "ClusterRoleBinding",
                "Deployment", "Service");
        Deployment d = admin.apps().deployments().inNamespace(NS).withName("hco-operator").get();
        var container = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(d.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(admin.services().inNamespace(NS).withName("hco-operator-metrics").get().getSpec()
                .getPublishNotReadyAddresses()).isTrue();
    }

    record Result(int exit, String output) {
    }

    private static Result helm(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(E2eBinaries.get().helm().toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), output);
    }
}
