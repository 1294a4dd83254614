package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.kubevirt.hco.observability.LogContext;
import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;

/**
 * Metrics without a sidecar, with access control, on the real API server: no token 401, a token
 * without the permission 403, Prometheus' ServiceAccount 200 — all while readiness is DOWN. And the
 * production log: JSON lines with the stable gate fields, and no bearer token in it even at DEBUG.
 */
class MetricsAccessIT extends E2eScenario {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void metricsNeedATokenAllowedToGetMetricsEvenWhileNotReady() throws Exception {
        String prometheus = ClusterSetup.grant(admin, NS, "prometheus-k8s", "hco-metrics-reader",
                ClusterSetup.METRICS_READER);
        String nobody = ClusterSetup.grant(admin, NS, "nobody", "nobody-reads-nothing", List.of());

        Map<String, String> env = new HashMap<>();
        env.put("HCO_METRICS_AUTH", "true");
        env.put("HCO_GATE_MODE", "readiness");
        env.put("OPERATOR_CONDITION_NAME", null);
        // as verbose as an SRE would turn it when debugging: still no credential may appear
        env.put("QUARKUS_LOG_CATEGORY__IO_KUBEVIRT_HCO__LEVEL", "DEBUG");
        env.put("QUARKUS_LOG_CATEGORY__IO_FABRIC8__LEVEL", "DEBUG");
        OperatorProcess op = operator("hco-v1", "1.0.0", env);
        createHyperConverged();
        simulator.behave("KubeVirt", Behaviour.SILENT).watch();
        within(60).until(() -> op.get("/q/metrics", prometheus).contains("kubevirt_hco_upgrade_in_progress 1.0"));

        assertThat(op.readiness()).as("readiness DOWN: the install is in progress").isEqualTo(503);
        assertThat(op.getPatiently("/q/metrics", null)).startsWith("401");
        assertThat(op.getPatiently("/q/metrics", "not-a-token")).startsWith("401");
        assertThat(op.getPatiently("/q/metrics", nobody)).startsWith("403").contains("nobody");
        String metrics = op.getPatiently("/q/metrics", prometheus);
        assertThat(metrics).startsWith("200").contains("kubevirt_hco_upgradeable 0.0");
        // the operator SDK's own (operations.md): a dependency change once dropped them silently
        assertThat(OperatorProcess.reconcilesStarted(metrics)).as("JOSDK's reconcile metrics in the production build")
                .isPositive();
        assertThat(op.getPatiently("/q/hco/gate", null)).startsWith("401");
        assertThat(op.getPatiently("/q/hco/gate?format=text", prometheus)).startsWith("200").contains("KubeVirt");
        assertThat(op.getPatiently("/q/health/live", null)).startsWith("200");
        // what docs/install.md shows: a held install as an SRE sees it
        java.nio.file.Path excerpts = java.nio.file.Files.createDirectories(java.nio.file.Path.of("target/excerpts"));
        java.nio.file.Files.writeString(excerpts.resolve("explain.txt"),
                op.get("/q/hco/gate?format=text", prometheus).substring(4));
        java.nio.file.Files.writeString(excerpts.resolve("metrics.txt"), String.join("\n",
                op.get("/q/metrics", prometheus).substring(4).lines().filter(l -> l.contains("kubevirt_hco_")).toList()));

        List<JsonNode> lines = jsonLines(op.log());
        assertThat(lines).as("every line of the production log is JSON").isNotEmpty();
        JsonNode held = lines.stream().filter(l -> l.path("message").asText().startsWith("gate transition"))
                .reduce((a, b) -> b).orElseThrow();
        assertThat(held.path("mdc").path(LogContext.GATE).asText()).isEqualTo("False");
        assertThat(held.path("mdc").path(LogContext.REASON).asText()).isNotEmpty();
        assertThat(held.path("mdc").path(LogContext.HCO_GENERATION).asText()).isEqualTo("1");
        assertThat(held.path("mdc").path(LogContext.UPGRADE_TO).asText()).isEqualTo("1.0.0");
        assertThat(lines).anySatisfy(l -> {
            assertThat(l.path("message").asText()).startsWith("created KubeVirt");
            assertThat(l.path("mdc").path(LogContext.COMPONENT).asText()).isEqualTo("KubeVirt");
        });
        String log = op.log();
        for (String secret : List.of(prometheus, nobody, operatorToken)) {
            assertThat(log).as("a bearer token in the operator's log").doesNotContain(secret)
                    .doesNotContain(secret.substring(secret.length() - 24));
        }
    }

    private static List<JsonNode> jsonLines(String log) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : log.split("\n")) {
            if (!line.isBlank()) {
                out.add(JSON.readTree(line));
            }
        }
        return out;
    }
}
