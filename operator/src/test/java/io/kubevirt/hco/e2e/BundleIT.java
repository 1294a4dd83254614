package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.packaging.BundleGenerator;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentSimulator;

/**
 * The OLM bundle: equal to what BundleGenerator makes of this build (refresh with
 * -Dhco.bundle.update=true), accepted by operator-framework's own validators, accepted by a real
 * API server with OLM's and prometheus-operator's CRDs, and enough to run: the operator started
 * from the CSV's Deployment env with only the CSV's permissions opens its gate.
 */
class BundleIT extends E2eScenario {

    private static final String OLM_NS = "hco-olm";

    @Test
    void bundleEqualsWhatTheGeneratorMakesOfThisBuild() throws Exception {
        Map<String, String> generated = BundleGenerator.generate(BuildOutputs.bundleInputs());
        if (Boolean.getBoolean("hco.bundle.update")) {
            for (var e : generated.entrySet()) {
                Path file = BuildOutputs.BUNDLE.resolve(e.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, e.getValue());
            }
        }
        List<String> onDisk;
        try (Stream<Path> files = Files.walk(BuildOutputs.BUNDLE)) {
            onDisk = files.filter(Files::isRegularFile).map(f -> BuildOutputs.BUNDLE.relativize(f).toString()).sorted()
                    .toList();
        }
        assertThat(onDisk).as("files in bundle/ (refresh with -Dhco.bundle.update=true)")
                .containsExactlyElementsOf(generated.keySet());
        for (var e : generated.entrySet()) {
            assertThat(Files.readString(BuildOutputs.BUNDLE.resolve(e.getKey())))
                    .as("bundle/" + e.getKey() + " is stale: run with -Dhco.bundle.update=true").isEqualTo(e.getValue());
        }
    }

    @Test
    void operatorFrameworkValidatorsAcceptTheBundleAndRejectABrokenOne() throws Exception {
        BuildOutputs.Result ok = validate(BuildOutputs.BUNDLE);
        System.out.println("[bundle-validate] " + ok.output());
        assertThat(ok.exit()).as(ok.output()).isZero();
        assertThat(ok.output()).contains("\"passed\": true");

        // the same bundle with the owned CRD's kind misspelled: the validator must say so
        Path broken = api.dir().resolve("broken-bundle");
        for (String dir : List.of("manifests", "metadata")) {
            Files.createDirectories(broken.resolve(dir));
            try (Stream<Path> files = Files.list(BuildOutputs.BUNDLE.resolve(dir))) {
                for (Path f : files.toList()) {
                    String text = Files.readString(f);
                    if (f.getFileName().toString().endsWith(".clusterserviceversion.yaml")) {
                        text = text.replace("kind: HyperConverged\n", "kind: HyperConvergd\n");
                    }
                    Files.writeString(broken.resolve(dir).resolve(f.getFileName()), text);
                }
            }
        }
        BuildOutputs.Result bad = validate(broken);
        assertThat(bad.exit()).as(bad.output()).isNotZero();
        assertThat(bad.output()).contains("HyperConvergd");
    }

    @Test
    @SuppressWarnings("unchecked")
    void manifestsAreAcceptedByARealApiServerAndTheCsvDeploymentRunsTheOperator() throws Exception {
        ClusterSetup.installOlmAndMonitoringCrds(admin);
        ClusterSetup.createNamespace(admin, OLM_NS);
        // its token controller fills the scraper's token Secret, as in a cluster
        RealOlm.startControllerManager(api);
        List<String> kinds = new ArrayList<>();
        GenericKubernetesResource csv = null;
        try (Stream<Path> files = Files.list(BuildOutputs.BUNDLE.resolve("manifests"))) {
            for (Path f : files.sorted().toList()) {
                for (HasMetadata item : admin.load(new ByteArrayInputStream(Files.readAllBytes(f))).items()) {
                    if (!java.util.Set.of("CustomResourceDefinition", "ClusterRole", "PriorityClass").contains(item.getKind())) {
                        item.getMetadata().setNamespace(OLM_NS);
                    }
                    // create, not update: the real schema of each kind (CSV, PrometheusRule, ...) judges it
                    HasMetadata created = admin.resource(item).createOr(existing -> existing.update());
                    kinds.add(item.getKind());
                    if ("ClusterServiceVersion".equals(item.getKind())) {
                        csv = (GenericKubernetesResource) created;
                    }
                }
            }
        }
        // the HyperConverged CRD and the four component CRDs the CSV owns, the component pods' PriorityClass
        assertThat(kinds).containsExactlyInAnyOrder("ClusterServiceVersion", "CustomResourceDefinition",
                "CustomResourceDefinition", "CustomResourceDefinition", "CustomResourceDefinition",
                "CustomResourceDefinition", "Service", "ClusterRole", "PrometheusRule", "ServiceMonitor",
                "PriorityClass");
        assertThat(csv).isNotNull();

        // what OLM does on install: ServiceAccount, the (cluster)Permissions, the OperatorCondition, the env it injects
        Map<String, Object> strategy = csv.get("spec", "install", "spec");
        Map<String, Object> permission = ((List<Map<String, Object>>) strategy.get("clusterPermissions")).get(0);
        Map<String, Object> namespaced = ((List<Map<String, Object>>) strategy.get("permissions")).get(0);
        String serviceAccount = (String) permission.get("serviceAccountName");
        assertThat(namespaced.get("serviceAccountName")).isEqualTo(serviceAccount);
        var ruleList = new com.fasterxml.jackson.core.type.TypeReference<List<PolicyRule>>() {
        };
        ClusterSetup.grant(admin, OLM_NS, serviceAccount, "hco-olm-csv",
                Serialization.jsonMapper().convertValue(permission.get("rules"), ruleList),
                Serialization.jsonMapper().convertValue(namespaced.get("rules"), ruleList));
        // the other clusterPermissions: the metrics scraper Prometheus uses
        List<Map<String, Object>> others = ((List<Map<String, Object>>) strategy.get("clusterPermissions"))
                .subList(1, ((List<?>) strategy.get("clusterPermissions")).size());
        for (Map<String, Object> other : others) {
            ClusterSetup.grant(admin, OLM_NS, (String) other.get("serviceAccountName"),
                    "hco-olm-csv-" + other.get("serviceAccountName"),
                    Serialization.jsonMapper().convertValue(other.get("rules"), ruleList));
        }
        String csvName = csv.getMetadata().getName();
        Cluster olmCluster = new Cluster(admin, OLM_NS);
        olmCluster.createOperatorCondition(csvName);
        Map<String, Object> first = ((List<Map<String, Object>>) strategy.get("deployments")).get(0);
        Deployment deployment = Serialization.jsonMapper().convertValue(Map.of("apiVersion", "apps/v1",
                "kind", "Deployment", "metadata", Map.of("name", first.get("name")), "spec", first.get("spec")),
                Deployment.class);

        OperatorProcess op = DeployedOperator.start(api, admin, deployment, OLM_NS,
                Map.of("OPERATOR_CONDITION_NAME", csvName));
        operators.add(op);
        op.awaitReady(60);
        // readiness comes after Initializing was written; by now the gate may have moved on, but never to True
        assertThat(olmCluster.upgradeable(csvName)).as("a closed gate written before readiness")
                .containsEntry("status", "False");
        // Prometheus scrapes as the bundle's ServiceMonitor tells it to, with nothing granted by hand
        var monitor = admin.genericKubernetesResources("monitoring.coreos.com/v1", "ServiceMonitor").inNamespace(OLM_NS)
                .withName("hco-operator").get();
        within(90).ignoreExceptions()
                .until(() -> PrometheusScrape.getsTheGateMetrics(admin, monitor, op.managementPort()));

        olmCluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
        // the component operators the CSV deploys have no kubelet here: played in process, each at the
        // version the CSV tells the operator to expect (the release file's)
        try (ComponentSimulator components = new ComponentSimulator(admin, OLM_NS, "unset")) {
            for (var descriptor : io.kubevirt.hco.components.ComponentCatalog.ALL) {
                deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                        .filter(e -> e.getName().equals(descriptor.versionEnv())).findFirst()
                        .ifPresent(e -> components.runVersion(descriptor.name(), e.getValue()));
            }
            components.watch();
            within(90).until(() -> {
                Map<String, Object> upgradeable = olmCluster.upgradeable(csvName);
                return upgradeable != null && "True".equals(upgradeable.get("status"));
            });
        }
    }

    private static BuildOutputs.Result validate(Path bundle) throws Exception {
        return BuildOutputs.run(E2eBinaries.get().bundleValidate().toString(), bundle.resolve("manifests").toString());
    }
}
