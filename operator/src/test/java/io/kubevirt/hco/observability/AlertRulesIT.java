package io.kubevirt.hco.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.kubevirt.hco.Repo;
import io.kubevirt.hco.e2e.E2eBinaries;

/**
 * The alert rules, checked and unit-tested by Prometheus' own promtool (series in, alerts out), and
 * every alert's runbook present.
 */
class AlertRulesIT {

    static final Path DIR = Repo.path("monitoring");

    @Test
    void rulesAreValid() throws Exception {
        assertThat(promtool("check", "rules", "hco-operator.rules.yaml")).contains("SUCCESS");
    }

    @Test
    void rulesFireAsTheirTestsSay() throws Exception {
        assertThat(promtool("test", "rules", "hco-operator.rules.test.yaml")).contains("SUCCESS");
    }

    @Test
    void everyAlertHasARunbookAndATest() throws IOException {
        String rules = Files.readString(DIR.resolve("hco-operator.rules.yaml"));
        String tests = Files.readString(DIR.resolve("hco-operator.rules.test.yaml"));
        Matcher alerts = Pattern.compile("- alert: (\\w+)").matcher(rules);
        int count = 0;
        while (alerts.find()) {
            count++;
            assertThat(tests).as("a promtool test for " + alerts.group(1)).contains("alertname: " + alerts.group(1));
        }
        assertThat(count).isGreaterThanOrEqualTo(8);
        // absolute, by default the operator's own runbook endpoint, which serves docs/runbooks/<alert>.md
        Matcher runbooks = Pattern.compile("runbook_url: \"([^\"]+)\"").matcher(rules);
        int urls = 0;
        while (runbooks.find()) {
            urls++;
            String url = runbooks.group(1);
            assertThat(url).startsWith(DEFAULT_RUNBOOK_PREFIX);
            assertThat(Repo.path("docs/runbooks/" + url.substring(DEFAULT_RUNBOOK_PREFIX.length()) + ".md"))
                    .as("runbook of " + url).exists();
        }
        assertThat(urls).isEqualTo(count);
    }

    /** Upstream HCO's alert labels on every alert, so that the same routing and dashboards work. */
    @Test
    void everyAlertCarriesUpstreamsLabels() throws IOException {
        String rules = Files.readString(DIR.resolve("hco-operator.rules.yaml"));
        String[] alerts = rules.split("- alert: ");
        for (int i = 1; i < alerts.length; i++) {
            assertThat(alerts[i]).as(alerts[i].lines().findFirst().orElse(""))
                    .contains("kubernetes_operator_part_of: kubevirt", "kubernetes_operator_component: hco-operator",
                            "operator_health_impact: ", "severity: ");
        }
    }

    static final String DEFAULT_RUNBOOK_PREFIX = "https://hco-operator-metrics.kubevirt-hyperconverged.svc:9000/q/hco/runbooks/";

    private static String promtool(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(E2eBinaries.get().promtool().toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as("promtool " + String.join(" ", args) + ":\n" + output).isZero();
        return output;
    }
}
