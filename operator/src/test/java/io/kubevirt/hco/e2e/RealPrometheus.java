package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The Prometheus server (built from the prometheus/prometheus module at promtool's version),
 * configured as prometheus-operator would configure it from the shipped ServiceMonitor and
 * PrometheusRule: the endpoint's scheme, path, CA and server name, the bearer token from the
 * Secret the monitor names, and the rule groups as a rule file. The targets are this host's ports
 * of the operator's pods (a file that is rewritten as pods come and go), where a cluster would use
 * the Service's endpoints.
 *
 * <p>Alert {@code for} durations are divided by 20 (15m → 45s, 10m → 30s, 1h → 3m), so that an alert
 * that needs a component degraded for 15 minutes fires in a test within a minute; everything else in
 * the rules is as shipped. (Divided by 60, HCOOperatorDown's 10 s was shorter than a leader
 * hand-over, during which no replica exposes the gate metrics: it fired in a normal upgrade.) promtool's unit tests (AlertRulesIT) check the shipped durations.
 */
final class RealPrometheus implements AutoCloseable {

    static final String JOB = "hco-operator";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern DURATION = Pattern.compile("^(\\d+)([mh])$");

    private final Path dir;
    private final int port;
    private final Process process;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private RealPrometheus(Path dir, int port, Process process) {
        this.dir = dir;
        this.port = port;
        this.process = process;
    }

    @SuppressWarnings("unchecked")
    static RealPrometheus start(KubernetesClient admin, GenericKubernetesResource serviceMonitor,
            GenericKubernetesResource prometheusRule, Path dir) throws Exception {
        Files.createDirectories(dir);
        String namespace = serviceMonitor.getMetadata().getNamespace();
        Map<String, Object> spec = (Map<String, Object>) serviceMonitor.getAdditionalProperties().get("spec");
        Map<String, Object> endpoint = ((List<Map<String, Object>>) spec.get("endpoints")).get(0);
        Map<String, Object> job = new LinkedHashMap<>();
        job.put("job_name", JOB);
        job.put("scrape_interval", "1s");
        job.put("scrape_timeout", "1s");
        job.put("metrics_path", endpoint.getOrDefault("path", "/metrics"));
        job.put("scheme", endpoint.getOrDefault("scheme", "http"));
        Map<String, Object> tls = (Map<String, Object>) endpoint.get("tlsConfig");
        if (tls != null) {
            Path ca = dir.resolve("ca.crt");
            Files.write(ca, PrometheusScrape.secret(admin, namespace, (Map<String, Object>) ((Map<String, Object>) tls.get("ca")).get("secret")));
            job.put("tls_config", Map.of("ca_file", ca.toString(), "server_name", tls.get("serverName")));
        }
        Map<String, Object> authorization = (Map<String, Object>) endpoint.get("authorization");
        if (authorization != null) {
            Path token = dir.resolve("token");
            Files.write(token, PrometheusScrape.secret(admin, namespace, (Map<String, Object>) authorization.get("credentials")));
            job.put("authorization", Map.of("type", authorization.getOrDefault("type", "Bearer"),
                    "credentials_file", token.toString()));
        }
        job.put("file_sd_configs", List.of(Map.of("files", List.of(dir.resolve("targets.json").toString()),
                "refresh_interval", "1s")));
        Files.writeString(dir.resolve("targets.json"), "[]");
        Path rules = dir.resolve("rules.yaml");
        Map<String, Object> ruleSpec = (Map<String, Object>) prometheusRule.getAdditionalProperties().get("spec");
        YAML.writeValue(rules.toFile(), Map.of("groups", scaled((List<Map<String, Object>>) ruleSpec.get("groups"))));
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("global", Map.of("scrape_interval", "1s", "evaluation_interval", "1s"));
        config.put("rule_files", List.of(rules.toString()));
        config.put("scrape_configs", List.of(job));
        Path configFile = dir.resolve("prometheus.yml");
        YAML.writeValue(configFile.toFile(), config);

        int port = RealApiServer.freePort();
        Process process = new ProcessBuilder(E2eBinaries.get().prometheus().toString(), "--config.file=" + configFile,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        RealPrometheus prometheus = new RealPrometheus(dir, port, process);
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!prometheus.get("/-/ready").startsWith("200")) {
            if (!process.isAlive() || System.nanoTime() > end) {
                throw new IOException("Prometheus did not become ready; its log:\n"
                        + Files.readString(dir.resolve("prometheus.log")));
            }
            Thread.sleep(200);
        }
        return prometheus;
    }

    /** The operator's pods' management ports on this host: what Prometheus scrapes from now on. */
    void targets(List<Integer> ports) throws IOException {
        List<String> addresses = new ArrayList<>();
        ports.forEach(p -> addresses.add("127.0.0.1:" + p));
        Path tmp = dir.resolve("targets.json.tmp");
        JSON.writeValue(tmp.toFile(), List.of(Map.of("targets", addresses)));
        Files.move(tmp, dir.resolve("targets.json"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** An instant query's result vector. */
    JsonNode query(String promql) throws IOException {
        String answer = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        JsonNode body = JSON.readTree(answer.substring(4));
        if (!"success".equals(body.path("status").asText())) {
            throw new IOException(promql + ": " + answer);
        }
        return body.path("data").path("result");
    }

    /** The alerts Prometheus holds now (pending and firing), each with its labels, annotations, state. */
    JsonNode alerts() throws IOException {
        return JSON.readTree(get("/api/v1/alerts").substring(4)).path("data").path("alerts");
    }

    /** The rule groups as loaded (proves the shipped groups parsed and are evaluated). */
    JsonNode ruleGroups() throws IOException {
        return JSON.readTree(get("/api/v1/rules").substring(4)).path("data").path("groups");
    }

    String log() throws IOException {
        return Files.readString(dir.resolve("prometheus.log"));
    }

    private String get(String path) {
        return OperatorProcess.get(http, URI.create("http://127.0.0.1:" + port + path), null);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> scaled(List<Map<String, Object>> groups) {
        for (Map<String, Object> group : groups) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                Object duration = rule.get("for");
                if (duration != null) {
                    Matcher m = DURATION.matcher(duration.toString());
                    if (!m.matches()) {
                        throw new IllegalArgumentException("rule " + rule.get("alert") + ": for " + duration
                                + " is not a whole number of minutes or hours; extend RealPrometheus");
                    }
                    long seconds = Long.parseLong(m.group(1)) * (m.group(2).equals("m") ? 60 : 3600);
                    rule.put("for", seconds / 20 + "s");
                }
            }
        }
        return groups;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
