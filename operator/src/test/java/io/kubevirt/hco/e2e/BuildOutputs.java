package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.MappingIterator;

import io.kubevirt.hco.Repo;
import io.kubevirt.hco.packaging.BundleGenerator;

/** What the build produced, read back for the packaging tests: the chart rendered by helm, the generated RBAC. */
final class BuildOutputs {

    static final Path CHART = Repo.path("helm/hco-operator");
    static final Path BUNDLE = Repo.path("bundle");
    static final Path OLM_SOURCES = Repo.path("packaging/olm");
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    record Result(int exit, String output) {
    }

    private BuildOutputs() {
    }

    static Result helm(String... args) throws IOException, InterruptedException {
        return run(E2eBinaries.get().helm().toString(), args);
    }

    static Result run(String executable, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(executable));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), output);
    }

    /** Every document of a multi-document YAML stream, as maps. */
    static List<Map<String, Object>> documents(String yaml) throws IOException {
        List<Map<String, Object>> docs = new ArrayList<>();
        try (MappingIterator<Map<String, Object>> it = BundleGenerator.YAML.readerFor(MAP).readValues(yaml)) {
            while (it.hasNext()) {
                Map<String, Object> doc = it.next();
                if (doc != null) {
                    docs.add(doc);
                }
            }
        }
        return docs;
    }

    static Map<String, Object> ofKind(List<Map<String, Object>> docs, String kind) {
        return docs.stream().filter(d -> kind.equals(d.get("kind"))).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + kind + " in " + docs.size() + " documents"));
    }

    /** The inputs of the bundle, taken from this build. */
    @SuppressWarnings("unchecked")
    static BundleGenerator.Inputs bundleInputs() throws IOException, InterruptedException {
        Map<String, Object> chart = BundleGenerator.YAML.readValue(Files.readString(CHART.resolve("Chart.yaml")), MAP);
        Properties release = new Properties();
        try (Reader r = Files.newBufferedReader(OLM_SOURCES.resolve("release.properties"))) {
            release.load(r);
        }
        // no chart-made certificate under OLM: nothing would create its Secret (see docs/operations.md, TLS); no
        // conversion webhook either: OLM manages one only for a CSV that supports AllNamespaces alone
        // (its installer: "CSVs with conversion webhooks must support only AllNamespaces"), so the
        // bundle serves v1beta1 only (BundleGenerator)
        // every component operator rendered: SSP's too (the operator decides at run time whether SSP
        // is part of the stack, see BundleGenerator)
        Result rendered = helm("template", BundleGenerator.PACKAGE, CHART.toString(), "--namespace", "placeholder",
                "--set", "metrics.tls.mode=none", "--api-versions", "monitoring.coreos.com/v1",
                "--set", "components.ssp.enabled=true", "--set", "conversionWebhook.enabled=false",
                "--set", "components.webhookCertificates=olm");
        if (rendered.exit() != 0) {
            throw new IllegalStateException("helm template failed: " + rendered.output());
        }
        List<Map<String, Object>> generated = documents(Files.readString(ClusterSetup.GENERATED.resolve("kubernetes.yml")));
        Map<String, Object> clusterRole = ofKind(generated, "ClusterRole");
        return new BundleGenerator.Inputs((String) chart.get("appVersion"), release,
                Files.readString(OLM_SOURCES.resolve("csv-base.yaml")),
                Files.readString(ClusterSetup.GENERATED.resolve("hyperconvergeds.hco.kubevirt.io-v1.yml")),
                (List<Object>) clusterRole.get("rules"), (List<Object>) ofKind(generated, "Role").get("rules"),
                documents(rendered.output()),
                Files.readString(Repo.path("monitoring/hco-operator.rules.yaml")),
                Files.readString(OLM_SOURCES.resolve("example-hyperconverged.yaml")),
                BundleGenerator.YAML.readValue(Repo.path("packaging/release.yaml").toFile(), MAP),
                BundleGenerator.YAML.readValue(CHART.resolve("files/component-operators.yaml").toFile(), MAP));
    }
}
