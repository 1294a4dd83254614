package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.StatusCondition;
import io.kubevirt.hco.e2e.BuildOutputs.Result;
import io.kubevirt.hco.snapshot.StackSnapshots;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentCrds;
import io.kubevirt.hco.simulator.ComponentSimulator;

/**
 * Readiness gate mode as the chart ships it (two replicas, no OperatorCondition): the real Helm
 * binary installs and upgrades the chart with {@code --wait} on a real API server, where
 * kube-controller-manager's Deployment controller rolls the pods out and the pod runner plays the
 * kubelet. Readiness is DOWN on every replica until the install or upgrade to its version has
 * settled, stabilization window included; so a rolling update to a new version can finish only if
 * the new revision's pod leads the upgrade its readiness waits for (RolloutHandover).
 */
class ReadinessModeRolloutIT {

    static final String NS = "hco-rollout";
    static final Duration WINDOW = Duration.ofSeconds(5);

    ClusterWithKubelet cluster;
    KubernetesClient admin;
    PodRunner kubelet;
    ComponentSimulator components;

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable part : new AutoCloseable[] { components, cluster }) {
            if (part != null) {
                part.close();
            }
        }
    }

    @Test
    void helmInstallWaitAVersionUpgradeAndARollingRestartAllFinishWithTwoReplicas() throws Exception {
        this.cluster = ClusterWithKubelet.start(NS, ComponentCrds::installComponents);
        admin = this.cluster.admin;
        kubelet = this.cluster.kubelet;
        Path kubeconfig = this.cluster.kubeconfig;
        Cluster cluster = new Cluster(admin, NS);

        // install: nothing to wait for yet (no HyperConverged), so both replicas turn ready
        Instant start = Instant.now();
        Result install = ClusterWithKubelet.helm(helmArgs(kubeconfig, "install", "1.0.0"));
        assertThat(install.exit()).as(install.output()).isZero();
        report("helm install --wait (two replicas ready)", start);
        assertThat(readyPods("1.0.0")).hasSize(2);

        cluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
        components = new ComponentSimulator(admin, NS, "1.0.0").watch();
        await().atMost(Duration.ofMinutes(2)).until(() -> upgradeable(cluster, "True", null));
        noHandoverRequestsOnceRolledOut();

        // upgrade: the Deployment starts one 2.0.0 pod next to the two 1.0.0 ones and waits for it
        String oldLeader = leader();
        assertThat(version(admin.pods().inNamespace(NS).withName(oldLeader).get())).isEqualTo("1.0.0");
        CompletableFuture<Result> upgrade = CompletableFuture.supplyAsync(() -> ClusterWithKubelet.helm(helmArgs(kubeconfig,
                "upgrade", "2.0.0")));
        start = Instant.now();
        // the new revision's pod took the lease from the old leader and drives the upgrade
        await().atMost(Duration.ofMinutes(3)).until(() -> upgradeable(cluster, "False", "UpgradeInProgress")
                && "2.0.0".equals(leaderVersion()));
        assertThat(upgrade).as("helm upgrade --wait returned before the components were upgraded").isNotDone();
        // it stopped to hand over; its container was restarted (as a standby) like any exited container
        await().atMost(Duration.ofSeconds(30)).until(() -> kubelet.restarts(oldLeader) == 1);
        Instant start2 = Instant.now();
        components.runVersionAll("2.0.0");
        // the moment every component CR reports 2.0.0 (seen at most one poll after the last write):
        // readiness must not come before it plus the window
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
                .until(() -> StackTruth.allHealthyAt(admin, NS, "2.0.0"));
        Instant componentsUpgraded = Instant.now();
        Result upgraded = upgrade.get(5, java.util.concurrent.TimeUnit.MINUTES);
        assertThat(upgraded.exit()).as(upgraded.output()).isZero();
        report("helm upgrade --wait, after the components ran 2.0.0", start2);
        assertThat(StackSnapshots.recordedVersion(cluster.hyperConverged(HyperConverged.SINGLETON_NAME)))
                .isEqualTo("2.0.0");
        assertThat(readyPods("2.0.0")).hasSize(2);
        assertThat(readyPods("1.0.0")).isEmpty();
        // readiness waited for the stabilization window after the components converged (Ready times
        // are whole seconds, hence the second of slack)
        Instant firstReady = readyPods("2.0.0").stream().map(ReadinessModeRolloutIT::readySince).min(Instant::compareTo)
                .orElseThrow();
        assertThat(firstReady).isAfterOrEqualTo(componentsUpgraded.plus(WINDOW).minusSeconds(1));

        // a rolling restart at the same version: new pods read the leader's record and turn ready
        List<String> before = podNames();
        start = Instant.now();
        admin.apps().deployments().inNamespace(NS).withName("hco-operator").rolling().restart();
        await().atMost(Duration.ofMinutes(3)).until(this::rolledOut);
        report("rolling restart (kubectl rollout restart) complete", start);
        await().atMost(Duration.ofSeconds(30)).until(() -> podNames().stream().noneMatch(before::contains));
        // the new leader starts its stabilization window afresh (it is kept in memory: losing it only
        // delays opening), so Upgradeable may say Stabilizing for up to the window after its first
        // pass; what it must not see is an upgrade, the recorded version being its own
        Set<String> reasonsSeen = ConcurrentHashMap.newKeySet();
        await().atMost(WINDOW.plusSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            StatusCondition c = cluster.hcoCondition(HyperConverged.SINGLETON_NAME, "Upgradeable");
            if (c != null) {
                reasonsSeen.add(c.reason);
            }
            return c != null && "True".equals(c.status) && !before.contains(leader());
        });
        report("rolling restart, gate open under the new leader (reasons seen: " + reasonsSeen + ")", start);
        assertThat(reasonsSeen).as("Upgradeable reasons during the rolling restart").doesNotContain("UpgradeInProgress");
    }

    /**
     * Between rollouts neither replica reads its ReplicaSet or the successor's announcement, and
     * the standby of the current revision does not announce itself: four renewals of the election
     * Lease (every 4 s here) span two handover checks of each replica (every 5 s) at least.
     */
    private void noHandoverRequestsOnceRolledOut() throws Exception {
        await().atMost(Duration.ofMinutes(1)).until(this::rolledOut);
        Instant from = Instant.now();
        await().atMost(Duration.ofMinutes(1)).until(() -> operatorRequestsSince(from).stream()
                .filter(r -> "hco-operator-lock".equals(r.name()) && !"get".equals(r.verb())).count() >= 4);
        assertThat(operatorRequestsSince(from)).as("the handover's requests while no rollout is under way")
                .filteredOn(r -> "replicasets".equals(r.resource()) || "hco-operator-lock-successor".equals(r.name())
                        || ("deployments".equals(r.resource()) && "get".equals(r.verb())))
                .isEmpty();
    }

    private List<AuditLog.Write> operatorRequestsSince(Instant from) throws java.io.IOException {
        return AuditLog.requestsBy(cluster.api.auditLog(), NS, "hco-operator", from);
    }

    private static void report(String what, Instant since) {
        System.out.printf("[rollout] %s: %.1f s%n", what, Duration.between(since, Instant.now()).toMillis() / 1000.0);
    }

    /** The pod holding the Lease (its name is the identity), or null. */
    private String leader() {
        var lease = admin.leases().inNamespace(NS).withName("hco-operator-lock").get();
        return lease == null ? null : lease.getSpec().getHolderIdentity();
    }

    private String leaderVersion() {
        String leader = leader();
        Pod pod = leader == null ? null : admin.pods().inNamespace(NS).withName(leader).get();
        return pod == null ? null : version(pod);
    }

    private static boolean upgradeable(Cluster cluster, String status, String reason) {
        HyperConverged hco = cluster.hyperConverged(HyperConverged.SINGLETON_NAME);
        StatusCondition c = hco == null ? null : cluster.hcoCondition(HyperConverged.SINGLETON_NAME, "Upgradeable");
        return c != null && status.equals(c.status) && (reason == null || reason.equals(c.reason));
    }

    /** As {@code kubectl rollout status} judges it. */
    private boolean rolledOut() {
        Deployment d = admin.apps().deployments().inNamespace(NS).withName("hco-operator").get();
        var s = d.getStatus();
        int want = d.getSpec().getReplicas();
        return s != null && s.getObservedGeneration() != null && s.getObservedGeneration() >= d.getMetadata().getGeneration()
                && s.getUpdatedReplicas() != null && s.getUpdatedReplicas() == want
                && s.getReplicas() != null && s.getReplicas() == want
                && s.getAvailableReplicas() != null && s.getAvailableReplicas() == want;
    }

    /** The pods that are not being deleted. */
    private List<String> podNames() {
        return admin.pods().inNamespace(NS).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).map(p -> p.getMetadata().getName())
                .toList();
    }

    private List<Pod> readyPods(String version) {
        return admin.pods().inNamespace(NS).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && version.equals(version(p))
                        && readySince(p) != null)
                .toList();
    }

    private static String version(Pod pod) {
        return pod.getSpec().getContainers().get(0).getEnv().stream().filter(e -> e.getName().equals("OPERATOR_VERSION"))
                .map(e -> e.getValue()).findFirst().orElse(null);
    }

    private static Instant readySince(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        return pod.getStatus().getConditions().stream()
                .filter(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))
                .map(c -> Instant.parse(c.getLastTransitionTime())).findFirst().orElse(null);
    }

    /** {@code helm install|upgrade --wait} of the chart at {@code version}, with short leases for a quick test. */
    private static List<String> helmArgs(Path kubeconfig, String verb, String version) {
        List<String> args = new ArrayList<>(List.of(verb, "hco", HelmChartIT.CHART.toString(), "--namespace", NS,
                "--kubeconfig", kubeconfig.toString(), "--wait", "--timeout", "8m",
                "--set", "image.tag=" + version, "--set", "gate.stabilizationWindow=" + WINDOW.toSeconds() + "s",
                "--set", "leaderElection.leaseDuration=30s", "--set", "leaderElection.renewDeadline=20s",
                "--set", "leaderElection.retryPeriod=4s"));
        // the component operators are played in process here (their versions moved by the test)
        args.addAll(List.of("--set", "versions.operator=" + version));
        args.addAll(HelmChartIT.inProcessComponents(version));
        return args;
    }
}
