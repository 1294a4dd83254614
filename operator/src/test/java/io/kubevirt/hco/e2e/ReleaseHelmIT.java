package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.StatusCondition;
import io.kubevirt.hco.e2e.BuildOutputs.Result;
import io.kubevirt.hco.snapshot.StackSnapshots;
import io.kubevirt.hco.simulator.Cluster;

/**
 * The release as the chart installs it: hco-operator and the four component operators (their
 * ServiceAccounts, RBAC, CRDs and Deployments), on a real API server that looks like OpenShift (so
 * SSP is part of the stack), with kube-controller-manager rolling the pods out and the pod runner
 * running each: our operator jar for ours, the simulated component operator of each image at the
 * image's version. {@code helm install --wait} and {@code helm upgrade --wait} of the whole set; the
 * upgrade returns only once every component reports the new version (readiness gate mode).
 */
class ReleaseHelmIT {

    static final String NS = "hco-release";
    static final List<String> COMPONENTS = List.of("kubevirt", "cdi", "networkAddons", "ssp");
    static final List<String> OPERATORS = List.of("hco-operator", "virt-operator", "cdi-operator",
            "cluster-network-addons-operator", "ssp-operator");

    ClusterWithKubelet cluster;
    KubernetesClient admin;

    @AfterEach
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void helmInstallsAndUpgradesTheWholeStackThroughTheGate() throws Exception {
        this.cluster = ClusterWithKubelet.start(NS, ClusterSetup::serveOpenShiftTemplates);
        admin = this.cluster.admin;
        Path kubeconfig = this.cluster.kubeconfig;
        Cluster cluster = new Cluster(admin, NS);

        Instant start = Instant.now();
        Result install = ClusterWithKubelet.helm(helmArgs(kubeconfig, "install", "1.0.0"));
        assertThat(install.exit()).as(install.output()).isZero();
        report("helm install --wait (five operators, seven pods ready)", start);
        assertThat(admin.apps().deployments().inNamespace(NS).list().getItems())
                .extracting(d -> d.getMetadata().getName()).containsExactlyInAnyOrderElementsOf(OPERATORS);
        // hco-operator's two replicas, virt-operator's two (upstream's count), one of each other operator
        assertThat(readyPods()).hasSize(7);
        assertThat(admin.apiextensions().v1().customResourceDefinitions().list().getItems())
                .extracting(c -> c.getMetadata().getName()).contains("kubevirts.kubevirt.io", "cdis.cdi.kubevirt.io",
                        "networkaddonsconfigs.networkaddonsoperator.network.kubevirt.io", "ssps.ssp.kubevirt.io",
                        "hyperconvergeds.hco.kubevirt.io");

        cluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
        await().atMost(Duration.ofMinutes(2)).until(() -> upgradeable(cluster, "True"));
        assertThat(StackTruth.allHealthyAt(admin, NS, "1.0.0")).as("every component reports 1.0.0").isTrue();

        // the next release: every operator's image and version moves to 2.0.0
        start = Instant.now();
        CompletableFuture<Result> upgrade = CompletableFuture.supplyAsync(() -> ClusterWithKubelet.helm(helmArgs(kubeconfig,
                "upgrade", "2.0.0")));
        await().atMost(Duration.ofMinutes(3)).until(() -> upgradeable(cluster, "False"));
        assertThat(upgrade).as("helm upgrade --wait returned while the stack was upgrading").isNotDone();
        Result upgraded = upgrade.get(6, TimeUnit.MINUTES);
        assertThat(upgraded.exit()).as(upgraded.output()).isZero();
        report("helm upgrade --wait (every component at 2.0.0)", start);
        assertThat(StackTruth.allHealthyAt(admin, NS, "2.0.0"))
                .as("helm upgrade --wait returned only once every component reported 2.0.0").isTrue();
        assertThat(StackSnapshots.recordedVersion(cluster.hyperConverged(HyperConverged.SINGLETON_NAME)))
                .isEqualTo("2.0.0");
        await().atMost(Duration.ofMinutes(1)).until(() -> upgradeable(cluster, "True"));
    }

    private static void report(String what, Instant since) {
        System.out.printf("[release] %s: %.1f s%n", what, Duration.between(since, Instant.now()).toMillis() / 1000.0);
    }

    private static boolean upgradeable(Cluster cluster, String status) {
        StatusCondition c = cluster.hcoCondition(HyperConverged.SINGLETON_NAME, "Upgradeable");
        return c != null && status.equals(c.status);
    }

    private List<Pod> readyPods() {
        return admin.pods().inNamespace(NS).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null
                        && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
                .toList();
    }

    /** The release at {@code version}: our image and every component operator's image at that tag. */
    private static List<String> helmArgs(Path kubeconfig, String verb, String version) {
        List<String> args = new ArrayList<>(List.of(verb, "hco", HelmChartIT.CHART.toString(), "--namespace", NS,
                "--kubeconfig", kubeconfig.toString(), "--wait", "--timeout", "8m",
                "--set", "image.tag=" + version, "--set", "versions.operator=" + version,
                "--set", "gate.stabilizationWindow=5s", "--set", "leaderElection.leaseDuration=30s",
                "--set", "leaderElection.renewDeadline=20s", "--set", "leaderElection.retryPeriod=4s"));
        List<String> images = List.of("virt-operator", "cdi-operator", "cluster-network-addons-operator", "ssp-operator");
        for (int i = 0; i < COMPONENTS.size(); i++) {
            args.addAll(List.of("--set", "components." + COMPONENTS.get(i) + ".version=" + version, "--set",
                    "components." + COMPONENTS.get(i) + ".image=quay.io/kubevirt/" + images.get(i) + ":" + version));
        }
        return args;
    }
}
