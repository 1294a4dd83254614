package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubevirt.hco.Repo;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentSimulator;
import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;

/**
 * A real Prometheus scrapes the operator (run from its image) with the chart's ServiceMonitor:
 * bearer token of the chart's scraper (metrics-reader role), TLS verified against the chart's CA
 * and server name, and evaluates the chart's PrometheusRule. Through an install and an upgrade of
 * the stack no alert fires; a component held degraded past the alert's {@code for} fires
 * HCOComponentNotReady with the labels and runbook the docs give; {@code up} is 1 all along, the
 * gate closed or not.
 */
class PrometheusIT extends E2eScenario {

    private static final String HELM_NS = "hco-monitored";

    @Test
    void noAlertFiresThroughAnUpgradeAndTheDocumentedAlertFiresForAHeldDegradation() throws Exception {
        ClusterSetup.installOlmAndMonitoringCrds(admin);
        ClusterSetup.createNamespace(admin, HELM_NS);
        RealOlm.startControllerManager(api);
        BuildOutputs.Result rendered = BuildOutputs.helm("template", "hco", BuildOutputs.CHART.toString(), "--namespace",
                HELM_NS, "--api-versions", "monitoring.coreos.com/v1", "--set", "gate.stabilizationWindow=1s");
        assertThat(rendered.exit()).as(rendered.output()).isZero();
        for (HasMetadata item : admin.load(new ByteArrayInputStream(rendered.output().getBytes(StandardCharsets.UTF_8)))
                .items()) {
            admin.resource(item).createOr(existing -> existing.update());
        }
        Deployment d = admin.apps().deployments().inNamespace(HELM_NS).withName("hco-operator").get();
        var env = d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
        OperatorLaunch image = OperatorLaunch.fromImage();
        // leases paced for a test, as a chart value would set them (the defaults hand over in up to 26 s)
        Map<String, String> leases = Map.of("HCO_LEASE_DURATION", "15s", "HCO_LEASE_RENEW_DEADLINE", "10s",
                "HCO_LEASE_RETRY_PERIOD", "2s");
        OperatorProcess v1 = DeployedOperator.start(api, admin, d, HELM_NS, leases, image, "hco-operator-v1");
        operators.add(v1);
        within(120).until(() -> v1.liveness() == 200);

        var monitor = admin.genericKubernetesResources("monitoring.coreos.com/v1", "ServiceMonitor").inNamespace(HELM_NS)
                .withName("hco-operator").get();
        GenericKubernetesResource rule = admin.genericKubernetesResources("monitoring.coreos.com/v1", "PrometheusRule")
                .inNamespace(HELM_NS).withName("hco-operator").get();
        // the scraper's token Secret is filled by the token controller
        within(60).ignoreExceptions().until(() -> PrometheusScrape.getsTheGateMetrics(admin, monitor, v1.managementPort()));
        try (RealPrometheus prometheus = RealPrometheus.start(admin, monitor, rule, api.dir().resolve("prometheus"));
                ComponentSimulator components = new ComponentSimulator(admin, HELM_NS, "unset")) {
            prometheus.targets(List.of(v1.managementPort()));
            within(30).until(() -> prometheus.query("up{job=\"hco-operator\"} == 1").size() == 1);
            Set<String> loaded = new TreeSet<>();
            prometheus.ruleGroups().forEach(g -> g.path("rules").forEach(r -> loaded.add(r.path("name").asText())));
            assertThat(loaded).contains("HCOOperatorDown", "HCOComponentNotReady", "HCOUpgradeStuck");

            // install: every component at the version the chart tells the operator to expect
            Map<String, String> expected = new HashMap<>();
            for (var descriptor : ComponentCatalog.ALL) {
                env.stream().filter(e -> e.getName().equals(descriptor.versionEnv())).findFirst().ifPresent(e -> {
                    expected.put(descriptor.name(), e.getValue());
                    components.runVersion(descriptor.name(), e.getValue());
                });
            }
            Cluster stack = new Cluster(admin, HELM_NS);
            stack.createHyperConverged(HyperConverged.SINGLETON_NAME);
            components.watch();
            List<String> fired = new ArrayList<>();
            untilWatchingAlerts(prometheus, fired, 120, () -> upgradeable(stack));

            // an upgrade: the next operator expects new versions, which the components reach one by
            // one, 15 s apart, slower than HCOComponentNotReady's (scaled) 45 s: only the upgrade guard
            // keeps it quiet
            Map<String, String> next = new HashMap<>(leases);
            next.put("OPERATOR_VERSION", "1.1.0");
            for (var descriptor : ComponentCatalog.ALL) {
                if (expected.containsKey(descriptor.name())) {
                    next.put(descriptor.versionEnv(), "v99.0.0");
                }
            }
            // a rolling update: the next pod starts beside the old one, is scraped, then the old one goes
            OperatorProcess v2 = DeployedOperator.start(api, admin, d, HELM_NS, next, image, "hco-operator-v2");
            operators.add(v2);
            within(120).until(() -> v2.liveness() == 200);
            prometheus.targets(List.of(v1.managementPort(), v2.managementPort()));
            untilWatchingAlerts(prometheus, fired, 30,
                    () -> prometheus.query("up{job=\"hco-operator\"} == 1").size() == 2);
            prometheus.targets(List.of(v2.managementPort()));
            untilWatchingAlerts(prometheus, fired, 30, () -> prometheus.query(
                    "up{instance=\"127.0.0.1:" + v1.managementPort() + "\"}").isEmpty());
            v1.close();
            untilWatchingAlerts(prometheus, fired, 90,
                    () -> prometheus.query("max(kubevirt_hco_upgrade_in_progress) == 1").size() == 1);
            for (String component : expected.keySet()) {
                long end = System.nanoTime() + 15_000_000_000L;
                untilWatchingAlerts(prometheus, fired, 20, () -> System.nanoTime() > end);
                components.runVersion(component, "v99.0.0");
            }
            untilWatchingAlerts(prometheus, fired, 120, () -> upgradeable(stack)
                    && prometheus.query("max(kubevirt_hco_upgrade_in_progress) == 0").size() == 1);
            assertThat(fired).as("alerts that fired during a normal install and upgrade").isEmpty();

            // a component held degraded, outside any upgrade, past the alert's for
            components.behave("KubeVirt", Behaviour.DEGRADED);
            within(120).until(() -> firing(prometheus, "HCOComponentNotReady") != null);
            JsonNode alert = firing(prometheus, "HCOComponentNotReady");
            assertThat(alert.path("labels").path("component").asText()).isEqualTo("KubeVirt");
            assertThat(alert.path("labels").path("severity").asText()).isEqualTo("warning");
            assertThat(alert.path("labels").path("operator_health_impact").asText()).isEqualTo("warning");
            assertThat(alert.path("labels").path("kubernetes_operator_part_of").asText()).isEqualTo("kubevirt");
            assertThat(alert.path("labels").path("kubernetes_operator_component").asText()).isEqualTo("hco-operator");
            String runbook = alert.path("annotations").path("runbook_url").asText();
            assertThat(runbook).endsWith("/HCOComponentNotReady");
            // what the docs say of it: its severity and impact, and its runbook
            assertThat(Files.readString(Repo.path("docs/operations.md"))).containsPattern(
                    "\\| `HCOComponentNotReady` \\|[^\\n]*\\| warning / warning \\|");
            assertThat(Repo.path("docs/runbooks/HCOComponentNotReady.md")).exists();
            assertThat(firing(prometheus, "HCOOperatorDown")).as("the operator is up and scraped").isNull();

            // liveness and metrics do not depend on the gate: scraped at every interval, gate open or closed
            JsonNode up = prometheus.query("min_over_time(up{job=\"hco-operator\"}[10m])");
            assertThat(up).hasSize(2); // v1's target, then v2's
            up.forEach(series -> assertThat(series.path("value").path(1).asText()).isEqualTo("1"));
            assertThat(prometheus.query("kubevirt_hco_upgradeable == 0")).as("the gate is closed meanwhile").hasSize(1);
        }
    }

    private static boolean upgradeable(Cluster stack) {
        var c = stack.hcoCondition(HyperConverged.SINGLETON_NAME, "Upgradeable");
        return c != null && "True".equals(c.status);
    }

    /** Waits up to {@code seconds} for {@code done}, recording every alert that fires meanwhile. */
    private static void untilWatchingAlerts(RealPrometheus prometheus, List<String> fired, int seconds,
            Callable<Boolean> done) throws Exception {
        within(seconds).pollInterval(java.time.Duration.ofMillis(500)).until(() -> {
            for (JsonNode alert : prometheus.alerts()) {
                if ("firing".equals(alert.path("state").asText())) {
                    fired.add(alert.path("labels").toString());
                }
            }
            return done.call();
        });
    }

    private static JsonNode firing(RealPrometheus prometheus, String name) throws Exception {
        for (JsonNode alert : prometheus.alerts()) {
            if (name.equals(alert.path("labels").path("alertname").asText()) && "firing".equals(alert.path("state").asText())) {
                return alert;
            }
        }
        return null;
    }
}
