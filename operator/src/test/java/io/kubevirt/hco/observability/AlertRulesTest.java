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
class AlertRulesTest {

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
        assertThat(count).isGreaterThanOrEqualTo(7);
        Matcher runbooks = Pattern.compile("runbook_url: \"([^\"]+)\"").matcher(rules);
        while (runbooks.find()) {
            assertThat(Repo.path(runbooks.group(1))).as("runbook " + runbooks.group(1)).exists();
        }
    }

    private static String promtool(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(E2eBinaries.get().promtool().toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as("promtool " + String.join(" ", args) + ":\n" + output).isZero();
        return output;
    }
}
