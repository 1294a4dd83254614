package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.e2e.BuildOutputs.Result;
import io.kubevirt.hco.simulator.Cluster;

/**
 * The gate on the processes it exists to watch: the release installed from the chart on a real API
 * server, with the real virt-operator and cluster-network-addons-operator (built from their Go
 * modules, e2e/bin/build.sh) driven by our operator, KWOK playing the node and the operand pods they
 * deploy (virt-api, virt-controller, virt-handler, multus, linux-bridge, ...), and the pod runner
 * running the operators' pods here (virt-operator's install-strategy Job included). Release 1.0.0
 * ships virt-operator at the previous KubeVirt version, 2.0.0 at the current one: the upgrade between
 * them runs the real upgrade of KubeVirt under our gate. CDI's operator
 * is simulated (its Go module is not served here; docs/testing.md); SSP is not part of a plain
 * Kubernetes stack. Every revision of the HyperConverged that says Upgradeable=True is audited
 * against the component CRs at that same revision (RevisionAudit): none may be false.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealComponentsIT {

    static final String NS = "kubevirt-hyperconverged";
    static final List<ComponentDescriptor> STACK = List.of(ComponentCatalog.KUBEVIRT, ComponentCatalog.CDI,
            ComponentCatalog.NETWORK_ADDONS);

    ClusterWithKubelet cluster;
    KubernetesClient admin;
    Cluster hco;
    RevisionAudit audit;
    E2eBinaries.RealComponents real;
    /** What each component must report when a revision records release 1.0.0 or 2.0.0 as installed. */
    Map<String, Map<String, String>> expected;
    /** The release installed now. */
    String release = "1.0.0";

    @BeforeAll
    void install() throws Exception {
        real = E2eBinaries.get().realComponents();
        cluster = KwokCluster.start(NS);
        admin = cluster.admin;
        hco = new Cluster(admin, NS);
        // release 1.0.0 ships virt-operator at the previous KubeVirt version, 2.0.0 at the current one;
        // the network add-ons and CDI stay where they are
        String cdi = releaseVersion("cdi");
        expected = Map.of(
                "1.0.0", Map.of("KubeVirt", real.virtOperatorPreviousVersion(), "NetworkAddonsConfig", real.cnaoVersion(), "CDI", cdi),
                "2.0.0", Map.of("KubeVirt", real.virtOperatorVersion(), "NetworkAddonsConfig", real.cnaoVersion(), "CDI", cdi));
        Instant start = Instant.now();
        Result r = ClusterWithKubelet.helm(helm("install", "1.0.0", real.virtOperatorPreviousVersion()));
        assertThat(r.exit()).as(r.output() + logs()).isZero();
        System.out.printf("[real] helm install --wait: %.1f s%n", seconds(start));
        // from before the HyperConverged exists: every revision of it and of each component CR
        audit = new RevisionAudit(admin, NS, STACK);
    }

    /** The chart installed or upgraded to {@code release}, with virt-operator at {@code kubevirt}. */
    private List<String> helm(String verb, String release, String kubevirt) {
        return new ArrayList<>(List.of(verb, "hco", HelmChartIT.CHART.toString(), "--namespace", NS,
                "--kubeconfig", cluster.kubeconfig.toString(), "--wait", "--timeout", "6m",
                "--set", "image.tag=" + release, "--set", "versions.operator=" + release,
                "--set", "gate.stabilizationWindow=5s",
                // our operator's replicas share this host and cannot serve the conversion webhook on
                // the pod's port (docs/testing.md): v1beta1 only, as the OLM bundle serves it
                "--set", "conversionWebhook.enabled=false",
                // the real operators report the version they are told (their version variable): the
                // versions of the modules built here, not the release's; the image tag says it too
                "--set", "components.kubevirt.version=" + kubevirt,
                "--set", "components.kubevirt.image=quay.io/kubevirt/virt-operator:" + kubevirt,
                "--set", "components.networkAddons.version=" + real.cnaoVersion(),
                // one replica: two virt-operator processes on one host would share its ports
                "--set", "components.kubevirt.replicas=1"));
    }

    @AfterAll
    void stop() throws Exception {
        if (audit != null) {
            audit.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void theRealOperatorsConvergeAndTheGateOpensOnlyAfterEachReportsItsVersion() throws Exception {
        Instant start = Instant.now();
        KwokCluster.createHyperConverged(admin, NS);
        long before = audit.latestRevision();
        within(Duration.ofMinutes(8), () -> "True".equals(upgradeable()));
        System.out.printf("[real] HyperConverged created -> Upgradeable=True: %.1f s%n", seconds(start));
        assertConvergedAndTimed(before, "install");
    }

    @Test
    @Order(2)
    void anUpgradeOfVirtOperatorRunsUnderAHeldGateAndTheGateOpensAtTheNewVersion() throws Exception {
        long before = audit.latestRevision();
        Instant start = Instant.now();
        // release 2.0.0: our operator and virt-operator move together, as a release moves them
        java.util.concurrent.CompletableFuture<Result> upgrade = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> ClusterWithKubelet.helm(helm("upgrade", "2.0.0", real.virtOperatorVersion())));
        release = "2.0.0";
        within(Duration.ofMinutes(3), () -> "False".equals(upgradeable()));
        Result r = upgrade.get(8, java.util.concurrent.TimeUnit.MINUTES);
        assertThat(r.exit()).as(r.output() + logs()).isZero();
        within(Duration.ofMinutes(8), () -> "True".equals(upgradeable())
                && "2.0.0".equals(RevisionAudit.recordedRelease(hcoResource())));
        System.out.printf("[real] helm upgrade to virt-operator %s -> Upgradeable=True: %.1f s%n", real.virtOperatorVersion(),
                seconds(start));
        // the gate was held while virt-operator upgraded: KubeVirt reported the upgrade on its way,
        // and no True was written between the upgrade's start and KubeVirt at its new version
        assertThat(audit.statusesAfter("KubeVirt", before)).as("KubeVirt's statuses during the upgrade")
                .anyMatch(s -> RevisionAudit.notConverged(s, real.virtOperatorPreviousVersion()) != null
                        && RevisionAudit.notConverged(s, real.virtOperatorVersion()) != null);
        assertConvergedAndTimed(before, "upgrade");
    }

    @Test
    @Order(3)
    void aSpecChangeThatReachesKubeVirtClosesTheGateUntilVirtOperatorObservedIt() throws Exception {
        long generation = kubevirt().getMetadata().getGeneration();
        admin.genericKubernetesResources("hco.kubevirt.io/v1beta1", "HyperConverged").inNamespace(NS)
                .withName(HyperConverged.SINGLETON_NAME).patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"featureGates\":{\"downwardMetrics\":true}}}");
        within(Duration.ofMinutes(1), () -> kubevirt().getMetadata().getGeneration() > generation);
        within(Duration.ofMinutes(5), () -> "True".equals(upgradeable())
                && observedGeneration(kubevirt()) == kubevirt().getMetadata().getGeneration());
        assertThat(kubevirtFeatureGates()).contains("DownwardMetrics");
        assertNoFalseTrue();
    }

    @Test
    @Order(4)
    void aSpecChangeThatReachesTheNetworkAddOnsReopensTheGateOnlyAfterCnaoWroteItsStatus() throws Exception {
        GenericKubernetesResource before = networkAddons();
        long generation = before.getMetadata().getGeneration();
        long trues = audit.trueRevisions();
        // the server certificates' rotation: reaches CNAO's selfSignConfiguration (and CDI's certConfig)
        admin.genericKubernetesResources("hco.kubevirt.io/v1beta1", "HyperConverged").inNamespace(NS)
                .withName(HyperConverged.SINGLETON_NAME).patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"certConfig\":{\"server\":{\"duration\":\"20h0m0s\",\"renewBefore\":\"10h0m0s\"}}}}");
        within(Duration.ofMinutes(1), () -> networkAddons().getMetadata().getGeneration() > generation);
        within(Duration.ofMinutes(5), () -> "True".equals(upgradeable()) && audit.trueRevisions() > trues);
        GenericKubernetesResource after = networkAddons();
        assertThat(after.getAdditionalProperties().get("status")).as("CNAO wrote its status after the spec write")
                .isNotEqualTo(before.getAdditionalProperties().get("status"));
        assertNoFalseTrue();
    }

    @Test
    @Order(5)
    void anOperandMadeUnreadyByKwokClosesTheGateUntilItRecovers() throws Exception {
        Pod handler = admin.pods().inNamespace(NS).withLabel("kubevirt.io", "virt-handler").list().getItems().stream()
                .findFirst().orElseThrow(() -> new AssertionError("no virt-handler pod" + logs()));
        long trues = audit.trueRevisions();
        admin.pods().inNamespace(NS).withName(handler.getMetadata().getName()).edit(p -> {
            p.getMetadata().getAnnotations().put(KwokCluster.UNREADY, "true");
            return p;
        });
        within(Duration.ofMinutes(3), () -> !"True".equals(upgradeable()));
        admin.pods().inNamespace(NS).withName(handler.getMetadata().getName()).edit(p -> {
            p.getMetadata().getAnnotations().remove(KwokCluster.UNREADY);
            return p;
        });
        within(Duration.ofMinutes(5), () -> "True".equals(upgradeable()));
        assertThat(audit.trueRevisions()).isGreaterThan(trues);
        assertNoFalseTrue();
    }

    @Test
    @Order(6)
    void aComponentOperatorKilledWhileConvergedLeavesNoFalseTrueAndNoStuckGate() throws Exception {
        Pod operator = admin.pods().inNamespace(NS).withLabel("kubevirt.io", "virt-operator").list().getItems().stream()
                .findFirst().orElseThrow();
        admin.pods().inNamespace(NS).withName(operator.getMetadata().getName()).delete();
        within(Duration.ofMinutes(2), () -> admin.pods().inNamespace(NS).withLabel("kubevirt.io", "virt-operator")
                .list().getItems().stream().anyMatch(p -> !p.getMetadata().getName().equals(operator.getMetadata().getName())
                        && p.getStatus() != null && p.getStatus().getConditions() != null
                        && p.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType())
                                && "True".equals(c.getStatus()))));
        within(Duration.ofMinutes(3), () -> "True".equals(upgradeable()));
        assertNoFalseTrue();
    }

    /** Waits for {@code condition}; on timeout fails with the stack's state and the operators' logs. */
    private void within(Duration limit, java.util.concurrent.Callable<Boolean> condition) {
        try {
            await().atMost(limit).pollInterval(Duration.ofSeconds(1)).until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            StringBuilder state = new StringBuilder(e.getMessage()).append("\nUpgradeable=").append(upgradeable());
            for (ComponentDescriptor d : STACK) {
                var cr = ComponentResources.managed(admin, d, NS).get();
                state.append('\n').append(d.kind()).append(": ")
                        .append(cr == null ? "absent" : String.valueOf(cr.getAdditionalProperties().get("status")));
            }
            throw new AssertionError(state + logs(), e);
        }
    }

    /**
     * The stack converged at the installed release's versions when the gate opened, no revision said
     * True falsely, and how long after each component's last status write the first True came.
     */
    private void assertConvergedAndTimed(long before, String what) {
        for (ComponentDescriptor d : STACK) {
            assertThat(RevisionAudit.notConverged(ComponentResources.managed(admin, d, NS).get(),
                    expected.get(release).get(d.kind()))).as(d.kind() + " converged when the gate opened").isNull();
        }
        long opened = audit.firstTrueAfter(before);
        audit.lastStatusWriteToTrue(opened).forEach((kind, took) -> System.out.printf(
                "[real] %s: %s's last status write -> Upgradeable=True: %.1f s%n", what, kind, took.toMillis() / 1000.0));
        assertNoFalseTrue();
    }

    private void assertNoFalseTrue() {
        System.out.printf("[real] audit: %d HyperConverged revisions, %d with Upgradeable=True%n", audit.hcoRevisions(),
                audit.trueRevisions());
        assertThat(audit.falseTrues(expected)).isEmpty();
    }

    private GenericKubernetesResource hcoResource() {
        return admin.genericKubernetesResources("hco.kubevirt.io/v1beta1", "HyperConverged").inNamespace(NS)
                .withName(HyperConverged.SINGLETON_NAME).get();
    }

    private String upgradeable() {
        var c = hco.hcoCondition(HyperConverged.SINGLETON_NAME, "Upgradeable");
        return c == null ? null : c.status;
    }

    private GenericKubernetesResource networkAddons() {
        return ComponentResources.managed(admin, ComponentCatalog.NETWORK_ADDONS, NS).get();
    }

    private GenericKubernetesResource kubevirt() {
        return ComponentResources.managed(admin, ComponentCatalog.KUBEVIRT, NS).get();
    }

    @SuppressWarnings("unchecked")
    private List<String> kubevirtFeatureGates() {
        Map<String, Object> spec = (Map<String, Object>) kubevirt().getAdditionalProperties().get("spec");
        Map<String, Object> config = (Map<String, Object>) spec.get("configuration");
        Map<String, Object> dev = (Map<String, Object>) config.get("developerConfiguration");
        return (List<String>) dev.get("featureGates");
    }

    private static long observedGeneration(GenericKubernetesResource cr) {
        return cr.getAdditionalProperties().get("status") instanceof Map<?, ?> s
                && s.get("observedGeneration") instanceof Number n ? n.longValue() : -1;
    }

    @SuppressWarnings("unchecked")
    private static String releaseVersion(String key) throws java.io.IOException {
        Map<String, Object> release = io.kubevirt.hco.packaging.BundleGenerator.YAML
                .readValue(io.kubevirt.hco.Repo.path("packaging/release.yaml").toFile(), Map.class);
        return (String) ((Map<String, Object>) ((Map<String, Object>) release.get("components")).get(key)).get("version");
    }

    /** The operators' logs' tails, for a failure's message. */
    private String logs() {
        StringBuilder b = new StringBuilder();
        try (var files = Files.list(cluster.api.dir())) {
            for (var f : files.filter(f -> f.toString().endsWith(".log") && !f.toString().matches(".*/(audit|etcd|kube-apiserver)\\.log")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                b.append("\n--- ").append(f.getFileName()).append('\n')
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size())));
            }
        } catch (Exception e) {
            b.append("\n(logs unreadable: ").append(e).append(')');
        }
        return b.toString();
    }

    private static double seconds(Instant since) {
        return Duration.between(since, Instant.now()).toMillis() / 1000.0;
    }
}
