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
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.kubevirt.hco.Repo;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.e2e.BuildOutputs.Result;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentSimulator;

/**
 * The Helm chart: its copies of the generated CRD, the generated RBAC rules and the alert rules
 * equal the build's (run with -Dhco.chart.update=true to refresh them); {@code helm lint} passes;
 * the values schema rejects bad values with a clear message; and what {@code helm template} renders
 * is accepted by a real API server.
 */
class HelmChartIT extends E2eScenario {

    static final Path CHART = BuildOutputs.CHART;
    private static final String HELM_NS = "hco-helm";
    private static final ObjectMapper YAML = new ObjectMapper(
            new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    @Test
    void chartCopiesMatchTheBuild() throws Exception {
        Path generatedCrd = ClusterSetup.GENERATED.resolve("hyperconvergeds.hco.kubevirt.io-v1.yml");
        List<HasMetadata> generated = admin.load(Files.newInputStream(ClusterSetup.GENERATED.resolve("kubernetes.yml")))
                .items();
        ClusterRole generatedRole = generated.stream().filter(ClusterRole.class::isInstance)
                .map(ClusterRole.class::cast).findFirst().orElseThrow();
        Role generatedNamespacedRole = generated.stream().filter(Role.class::isInstance).map(Role.class::cast)
                .findFirst().orElseThrow();
        Map<Path, String> expected = new java.util.HashMap<>(Map.of(
                CHART.resolve("files/crds/hyperconvergeds.hco.kubevirt.io-v1.yml"), Files.readString(generatedCrd),
                CHART.resolve("files/rbac-rules.yaml"), YAML.writeValueAsString(
                        YAML.readValue(YAML.writeValueAsString(generatedRole.getRules()), List.class)),
                CHART.resolve("files/rbac-namespaced-rules.yaml"), YAML.writeValueAsString(
                        YAML.readValue(YAML.writeValueAsString(generatedNamespacedRole.getRules()), List.class)),
                CHART.resolve("files/hco-operator.rules.yaml"),
                Files.readString(Repo.path("monitoring/hco-operator.rules.yaml")),
                // the release file: one, read by the chart (and through it by the bundle)
                CHART.resolve("files/release.yaml"), Files.readString(Repo.path("packaging/release.yaml"))));
        // the component CRDs are generated from the components' modules and checked by ComponentCrdsIT
        // (the simulator serves the chart's files themselves)
        for (var e : expected.entrySet()) {
            if (Boolean.getBoolean("hco.chart.update")) {
                Files.writeString(e.getKey(), e.getValue());
            }
            assertThat(Files.exists(e.getKey()) ? YAML.readTree(Files.readString(e.getKey())) : null)
                    .as(e.getKey() + " equals the build's (refresh with -Dhco.chart.update=true)")
                    .isEqualTo(YAML.readTree(e.getValue()));
        }
    }

    /**
     * Every values file under helm/test-values: valid-*.yaml must lint and render, invalid-*.yaml must
     * be rejected at lint and at template time with the JSON path its first line names ("# expect: ...").
     */
    @Test
    void lintAndTemplateAcceptValidValuesFilesAndRejectInvalidOnes() throws Exception {
        assertThat(helm("lint", "--strict", CHART.toString()).exit()).isZero();
        List<Path> files;
        try (var list = Files.list(Repo.path("helm/test-values"))) {
            files = list.sorted().toList();
        }
        assertThat(files).anyMatch(f -> f.getFileName().toString().startsWith("valid-"))
                .anyMatch(f -> f.getFileName().toString().startsWith("invalid-"));
        for (Path values : files) {
            String name = values.getFileName().toString();
            Result lint = helm("lint", "--strict", CHART.toString(), "-f", values.toString());
            Result template = helm("template", "x", CHART.toString(), "-f", values.toString());
            if (name.startsWith("valid-")) {
                assertThat(lint.exit()).as(name + ": " + lint.output()).isZero();
                assertThat(template.exit()).as(name + ": " + template.output()).isZero();
            } else {
                String expected = Files.readAllLines(values).get(0).replace("# expect:", "").trim();
                assertThat(lint.exit()).as(name + " must fail lint").isNotZero();
                assertThat(template.exit()).as(name + " must fail template").isNotZero();
                assertThat(template.output()).as(name).contains(expected);
            }
        }
        Result monitoring = helm("template", "x", CHART.toString(), "-f", Repo.path("helm/test-values/valid-production.yaml").toString(),
                "--api-versions", "monitoring.coreos.com/v1");
        assertThat(monitoring.output()).contains("kind: ServiceMonitor", "kind: PrometheusRule",
                "alert: HCOUpgradeStuck", "{{ $labels.component }} has not converged", "replicas: 3",
                "runbook_url: \"https://wiki.example/runbooks/HCOUpgradeStuck\"", "kind: NetworkPolicy",
                "kubernetes.io/metadata.name: openshift-monitoring", "priorityClassName: system-cluster-critical",
                "kind: PodDisruptionBudget", "helm.sh/resource-policy: keep");
        // without the monitoring API (plain `helm template`), no monitoring objects are rendered
        assertThat(helm("template", "x", CHART.toString()).output()).doesNotContain("kind: ServiceMonitor",
                "kind: PrometheusRule");
    }

    /** v1 is served with the conversion webhook wired (the chart's default), and only then. */
    @Test
    @SuppressWarnings("unchecked")
    void theCrdServesV1OnlyWithTheConversionWebhook() throws Exception {
        for (String enabled : List.of("true", "false")) {
            Result rendered = helm("template", "x", CHART.toString(), "--namespace", "hco", "--set",
                    "conversionWebhook.enabled=" + enabled);
            assertThat(rendered.exit()).as(rendered.output()).isZero();
            Map<String, Object> crd = BuildOutputs.documents(rendered.output()).stream()
                    .filter(d -> "CustomResourceDefinition".equals(d.get("kind"))
                            && "hyperconvergeds.hco.kubevirt.io".equals(((Map<String, Object>) d.get("metadata")).get("name")))
                    .findFirst().orElseThrow();
            Map<String, Object> spec = (Map<String, Object>) crd.get("spec");
            boolean v1Served = ((List<Map<String, Object>>) spec.get("versions")).stream()
                    .anyMatch(v -> "v1".equals(v.get("name")) && Boolean.TRUE.equals(v.get("served")));
            assertThat(v1Served).as("v1 served with conversionWebhook.enabled=" + enabled).isEqualTo(Boolean.parseBoolean(enabled));
            Map<String, Object> conversion = (Map<String, Object>) spec.get("conversion");
            if (Boolean.parseBoolean(enabled)) {
                assertThat(conversion).containsEntry("strategy", "Webhook");
                assertThat(rendered.output()).contains("name: hco-operator-webhook", "HCO_WEBHOOK_ENABLED");
            } else {
                assertThat(conversion).isNull();
                assertThat(rendered.output()).doesNotContain("HCO_WEBHOOK_ENABLED");
            }
        }
    }

    @Test
    void renderedManifestsAreAcceptedByARealApiServerAndTheDeploymentRunsTheOperator() throws Exception {
        ClusterSetup.installOlmAndMonitoringCrds(admin);
        ClusterSetup.createNamespace(admin, HELM_NS);
        // its token controller fills the scraper's token Secret, as in a cluster
        RealOlm.startControllerManager(api);
        // its own namespace: the operator below runs with the chart's RBAC only, not the suite's
        // the chart's defaults (metrics auth and TLS on, ServiceMonitor and PrometheusRule where the
        // monitoring API exists), plus a PodMonitor
        Result rendered = helm("template", "hco", CHART.toString(), "--namespace", HELM_NS,
                "--api-versions", "monitoring.coreos.com/v1", "--set", "metrics.podMonitor.enabled=true",
                "--set", "gate.stabilizationWindow=1s");
        assertThat(rendered.exit()).as(rendered.output()).isZero();
        List<HasMetadata> items = admin.load(new ByteArrayInputStream(rendered.output().getBytes(StandardCharsets.UTF_8)))
                .items();
        List<String> kinds = new ArrayList<>();
        for (HasMetadata item : items) {
            // the real schema of each kind (Deployment, ServiceMonitor, PrometheusRule, ...) judges it
            admin.resource(item).createOr(existing -> existing.update());
            kinds.add(item.getKind());
        }
        assertThat(kinds).contains("CustomResourceDefinition", "ServiceAccount", "ClusterRole", "ClusterRoleBinding",
                "Role", "RoleBinding", "Secret", "PodDisruptionBudget",
                "Deployment", "Service", "ServiceMonitor", "PodMonitor", "PrometheusRule");
        Deployment d = admin.apps().deployments().inNamespace(HELM_NS).withName("hco-operator").get();
        var container = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(d.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(admin.services().inNamespace(HELM_NS).withName("hco-operator-metrics").get().getSpec()
                .getPublishNotReadyAddresses()).isTrue();

        // the pod as a kubelet would run it: the Deployment's env, the chart's ServiceAccount and RBAC
        OperatorProcess op = DeployedOperator.start(api, admin, d, HELM_NS, Map.of());
        operators.add(op);
        op.awaitReady(60);
        // TLS with the chart's self-signed certificate (the client pins it), and the token check on
        assertThat(op.getPlainHttp("/q/health/ready")).as("plain HTTP on a TLS port").doesNotStartWith("200");
        assertThat(op.getPatiently("/q/metrics", null)).startsWith("401");
        assertThat(op.getPatiently("/q/health/live", null)).startsWith("200");
        // Prometheus scrapes as the shipped monitors tell it to, with nothing granted by hand
        for (String kind : List.of("ServiceMonitor", "PodMonitor")) {
            var monitor = admin.genericKubernetesResources("monitoring.coreos.com/v1", kind).inNamespace(HELM_NS)
                    .withName("hco-operator").get();
            within(60).ignoreExceptions()
                    .until(() -> PrometheusScrape.getsTheGateMetrics(admin, monitor, op.managementPort()));
        }
        Cluster helmCluster = new Cluster(admin, HELM_NS);
        helmCluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
        // the component operators the chart deploys have no kubelet here: played in process, each at
        // the version the chart told the operator to expect (the release file's)
        try (ComponentSimulator components = new ComponentSimulator(admin, HELM_NS, "unset")) {
            for (var descriptor : io.kubevirt.hco.components.ComponentCatalog.ALL) {
                container.getEnv().stream().filter(e -> e.getName().equals(descriptor.versionEnv())).findFirst()
                        .ifPresent(e -> components.runVersion(descriptor.name(), e.getValue()));
            }
            components.watch();
            within(90).until(() -> {
                var upgradeable = helmCluster.hcoCondition(HyperConverged.SINGLETON_NAME, "Upgradeable");
                return upgradeable != null && "True".equals(upgradeable.status);
            });
        }
    }

    /**
     * The values for a test that plays the component operators in process at {@code version} and
     * installed their CRDs itself: the chart deploys no component operator and no component CRD
     * (Helm refuses to take over CRDs it did not create), expects that version of each, with SSP
     * part of the stack.
     */
    static List<String> inProcessComponents(String version) {
        List<String> args = new ArrayList<>(List.of("--set", "components.deployOperators=false", "--set",
                "components.installCrds=false", "--set", "components.ssp.enabled=true"));
        for (String key : List.of("kubevirt", "cdi", "networkAddons", "ssp")) {
            args.addAll(List.of("--set", "components." + key + ".version=" + version));
        }
        return args;
    }

    private static Result helm(String... args) throws IOException, InterruptedException {
        return BuildOutputs.helm(args);
    }
}
