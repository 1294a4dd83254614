package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import io.kubevirt.hco.Repo;

/**
 * The Dev UI card in a real browser: dev mode started as a developer starts it ({@code bin/mvn39
 * quarkus:dev}), Debian's Chromium opens the card, and what the page shows is checked as the
 * simulated stack is driven from the page's own buttons: held mid-upgrade, open once every
 * component finished, held again naming KubeVirt after a simulated degrade. Each step also checks
 * that the page agrees with the operator's explain endpoint, which it is built from.
 */
class DevUiBrowserIT {

    static final Path OUT = Path.of("target/dev-ui");
    static final String PAGE = "hco-dev-console/upgrade-gate";
    static final Duration STARTUP = Duration.ofMinutes(5);
    static final Duration STEP = Duration.ofSeconds(60);

    /** Finds an element through the Dev UI's nested shadow roots (Lit components all the way down). */
    static final String FIND = """
            function find(root, selector) {
              const hit = root.querySelector(selector);
              if (hit) return hit;
              for (const n of root.querySelectorAll('*')) {
                if (n.shadowRoot) { const f = find(n.shadowRoot, selector); if (f) return f; }
              }
              return null;
            }
            """;

    /** Reads what our card renders. */
    static final String READ_CARD = FIND + """
            const card = find(document, 'qwc-hco-gate');
            if (!card || !card.shadowRoot) return null;
            const r = card.shadowRoot;
            const decision = r.querySelector('#decision');
            const rows = {};
            r.querySelectorAll('tr[data-component]').forEach(tr => rows[tr.dataset.component] = {
              blockedBy: tr.querySelector('.verdict').dataset.blockedBy,
              verdict: tr.querySelector('.verdict').innerText.trim(),
              behaviour: tr.querySelector('.behaviour').innerText.trim() });
            const timeline = r.querySelector('#timeline');
            return { decision: decision ? decision.innerText.trim() : null,
                     upgradeable: decision ? decision.dataset.upgradeable || null : null,
                     reason: decision ? decision.dataset.reason || null : null,
                     rows: rows, timeline: timeline ? timeline.innerText : '' };
            """;

    /** Clicks one of the card's buttons, as a user would (the button's own click handler runs). */
    static final String CLICK = FIND + """
            const button = find(find(document, 'qwc-hco-gate').shadowRoot, arguments[0]);
            if (!button) return false;
            button.click();
            return true;
            """;

    static DevModeProcess dev;
    static ChromeDriver browser;

    @BeforeAll
    static void startDevModeAndBrowser() throws Exception {
        Properties tools = browserTools();
        dev = DevModeProcess.start(OUT);
        await("dev mode serving the gate (log: " + dev.log + ")").atMost(STARTUP).pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    assertThat(dev.alive()).as("dev mode exited:\n" + dev.logTail()).isTrue();
                    return dev.management("/q/hco/gate").startsWith("200 ");
                });
        ChromeOptions options = new ChromeOptions().setBinary(tools.getProperty("chromium"))
                // as root in a sandbox-less container, with no network beyond loopback
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-quic", "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--window-size=1400,1000",
                        "--user-data-dir=" + Files.createTempDirectory("hco-chromium"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of(tools.getProperty("chromedriver")).toFile())
                .withLogFile(OUT.resolve("chromedriver.log").toFile()).build();
        browser = new ChromeDriver(service, options);
        browser.get(dev.devUi(PAGE));
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (dev != null) {
            dev.close();
        }
    }

    @Test
    void theCardShowsTheLiveGateAndDrivesTheSimulatedStack() throws Exception {
        // dev mode starts mid-upgrade: every simulated operator still runs the previous release
        Map<String, Object> held = waitForCard("held by every component at the previous release", card ->
                "false".equals(card.get("upgradeable")) && rows(card).size() == 4
                        && rows(card).values().stream().allMatch(r -> "ComponentVersionMismatch".equals(r.get("blockedBy"))));
        assertThat((String) held.get("decision")).startsWith("Upgradeable=False");
        assertSameAsExplain(held);

        click("#finish-all");
        Map<String, Object> open = waitForCard("open once every component finished", card ->
                "true".equals(card.get("upgradeable"))
                        && rows(card).values().stream().allMatch(r -> "".equals(r.get("blockedBy"))));
        assertThat((String) open.get("decision")).isEqualTo("Upgradeable=True · AsExpected");
        assertSameAsExplain(open);

        click("button[data-component='KubeVirt'][data-action='degraded']");
        Map<String, Object> degraded = waitForCard("held again by KubeVirt after the simulated degrade", card ->
                "false".equals(card.get("upgradeable"))
                        && "ComponentDegraded".equals(rows(card).get("KubeVirt").get("blockedBy")));
        assertThat((String) degraded.get("decision")).startsWith("Upgradeable=False");
        assertThat(rows(degraded).get("KubeVirt").get("behaviour")).startsWith("DEGRADED");
        assertThat(rows(degraded).get("KubeVirt").get("verdict")).contains("ComponentDegraded", "Degraded=True");
        assertThat(rows(degraded).entrySet()).filteredOn(e -> !e.getKey().equals("KubeVirt"))
                .allMatch(e -> "".equals(e.getValue().get("blockedBy")), "the other components stay converged");
        assertThat((String) degraded.get("timeline")).contains("degraded: KubeVirt", "finish upgrade: KubeVirt",
                "Upgradeable=True", "Upgradeable=False");
        assertSameAsExplain(degraded);
        screenshot("dev-ui-degraded.png");
    }

    private Map<String, Object> waitForCard(String what, java.util.function.Predicate<Map<String, Object>> shown) {
        Map<String, Object>[] last = new Map[1];
        await(what).atMost(STEP).pollInterval(Duration.ofMillis(250)).until(() -> {
            last[0] = read();
            return last[0] != null && shown.test(last[0]);
        });
        return last[0];
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read() {
        return (Map<String, Object>) ((JavascriptExecutor) browser).executeScript(READ_CARD);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, String>> rows(Map<String, Object> card) {
        return (Map<String, Map<String, String>>) card.get("rows");
    }

    private static void click(String selector) {
        assertThat((Boolean) ((JavascriptExecutor) browser).executeScript(CLICK, selector))
                .as("button " + selector + " on the card").isTrue();
    }

    /** The page is drawn from the operator's explanation: the endpoint must say the same, or move on. */
    private static void assertSameAsExplain(Map<String, Object> card) {
        // a busy machine may answer late: bounded by the scenario, not by one request's timeout
        String explain = dev.managementPatiently("/q/hco/gate");
        assertThat(explain).startsWith("200 ");
        assertThat(explain).contains("\"reason\" : \"" + card.get("reason") + "\"");
    }

    /** Kept under target/; -Dhco.docs.update=true also refreshes development.md's screenshot in docs/. */
    private static void screenshot(String name) throws IOException {
        Path shot = OUT.resolve(name);
        Files.write(shot, browser.getScreenshotAs(OutputType.BYTES));
        if (Boolean.getBoolean("hco.docs.update")) {
            Files.copy(shot, Repo.path("docs/" + name), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static Properties browserTools() throws IOException, InterruptedException {
        BuildOutputs.Result r = BuildOutputs.run(Repo.path("e2e/bin/browser.sh").toString());
        assertThat(r.exit()).as("e2e/bin/browser.sh: " + r.output()).isZero();
        Properties p = new Properties();
        p.load(new java.io.StringReader(r.output().lines().filter(l -> l.matches("^(chromium|chromedriver)=.*"))
                .reduce("", (a, b) -> a + b + "\n")));
        return p;
    }
}
