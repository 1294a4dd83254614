package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.SubjectBuilder;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.snapshot.StackSnapshots;
import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;

/** Scenarios 4, 5, 6 and 8 of the e2e issue: the start-of-upgrade window, chained releases, stale status, fail-over. */
class GateSafetyIT extends E2eScenario {

    @Test
    void initializingIsWrittenBeforeReadinessAndBeforeAnyOtherWrite() throws Exception {
        olm.installCsv("2.0.0");
        Instant start = Instant.now();
        OperatorProcess v2 = operator("hco-v2", "2.0.0");
        v2.awaitReady(60);
        // readiness is UP: the OperatorCondition must already carry the closing write
        Map<String, Object> written = olm.written("2.0.0");
        assertThat(written).isNotNull();
        assertThat(written.get("status")).isEqualTo("False");
        List<AuditLog.Write> writes = AuditLog.by(api.auditLog(), ClusterSetup.SERVICE_ACCOUNT, start);
        assertThat(writes).isNotEmpty();
        assertThat(writes.get(0).what()).as("first write of the new version: " + writes)
                .isEqualTo("patch operatorconditions " + OperatorProcess.operatorConditionName("2.0.0"));
        assertThat(olm.revisions().get(0)).endsWith("False/Initializing");
    }

    @Test
    void releasesPublishedBackToBackAreTakenOneCompletedUpgradeAtATime() throws Exception {
        chain(List.of("1.0.0", "2.0.0", "3.0.0"));
    }

    @Test
    void skippingAReleaseWorksTheSameWay() throws Exception {
        chain(List.of("1.0.0", "3.0.0"));
    }

    /**
     * OLM's walk along a channel whose releases are all published: it leaves version N for the next
     * one as soon as it may, i.e. as soon as N's CSV is installed (its operator ready) and N's
     * OperatorCondition reads upgradeable. Component operators follow the running version in the
     * background. Leaving N before every component converged at N is a premature step.
     */
    private void chain(List<String> versions) throws Exception {
        versions.forEach(olm::installCsv);
        // every revision of each version's OperatorCondition, judged against the component CRs at
        // that same resourceVersion (not when the event arrives, not after the fact)
        Map<String, RevisionAudit> audits = new java.util.LinkedHashMap<>();
        for (String version : versions) {
            audits.put(version, new RevisionAudit(admin, NS, ComponentCatalog.ALL, OperatorProcess.operatorConditionName(version)));
        }
        try {
            createHyperConverged();
            simulator.watch();
            OperatorProcess current = null;
            for (String version : versions) {
                if (current != null) {
                    current.close();
                }
                OperatorProcess op = operator("hco-v" + version, version);
                current = op;
                Thread follower = new Thread(() -> {
                    try {
                        for (var d : ComponentCatalog.ALL) {
                            Thread.sleep(400);
                            simulator.runVersion(d.name(), version);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "components-follow-" + version);
                follower.start();
                within(90).pollInterval(Duration.ofMillis(50)).until(() -> op.readiness() == 200 && olm.upgradeable(version));
                follower.join();
                Map<String, String> expected = new java.util.HashMap<>();
                ComponentCatalog.ALL.forEach(d -> expected.put(d.kind(), version));
                RevisionAudit audit = audits.get(version);
                assertThat(audit.operatorConditionFalseTrues(expected))
                        .as("OLM may leave " + version + " only once every component converged at it; "
                                + audit.operatorConditionRevisions() + " revisions of its OperatorCondition")
                        .isEmpty();
                assertThat(StackSnapshots.recordedVersion(cluster.hyperConverged(HyperConverged.SINGLETON_NAME)))
                        .isEqualTo(version);
            }
        } finally {
            audits.values().forEach(RevisionAudit::close);
        }
    }

    @Test
    void oldStatusOfAnOldGenerationDoesNotOpenTheGateAfterASpecChange() throws Exception {
        installedAndUpgradeable("1.0.0");

        // KubeVirt (observedGeneration) and CDI (a status written after our spec write) stop
        // reporting; their old status stays healthy. The change reaches what cdi-operator renders
        // (the infra placement): a change of anything else would leave CDI nothing to report
        simulator.behave("KubeVirt", Behaviour.SILENT).behave("CDI", Behaviour.SILENT);
        long kubevirtGeneration = cluster.component(ComponentCatalog.KUBEVIRT).getMetadata().getGeneration();
        editHyperConverged(hco -> {
            hco.getSpec().featureGates.downwardMetrics = true;
            hco.getSpec().infra.nodePlacement = new io.kubevirt.hco.api.v1beta1.NodePlacement();
            hco.getSpec().infra.nodePlacement.nodeSelector = Map.of("example.io/infra", "true");
        });
        within(30).until(() -> cluster.component(ComponentCatalog.KUBEVIRT).getMetadata().getGeneration() > kubevirtGeneration);
        within(30).until(() -> "False/ComponentStale".equals(olm.last("1.0.0")));
        holdsFor(Duration.ofSeconds(5), () -> !olm.upgradeable("1.0.0"), "a changed spec not yet observed");
        simulator.behave("KubeVirt", Behaviour.HEALTHY);
        within(30).until(() -> String.valueOf(olm.written("1.0.0").get("message")).startsWith("CDI"));
        holdsFor(Duration.ofSeconds(3), () -> !olm.upgradeable("1.0.0"), "CDI has not written its status since the write");
        simulator.behave("CDI", Behaviour.HEALTHY);
        within(30).until(() -> "True/AsExpected".equals(olm.last("1.0.0")));
    }

    @Test
    void killingTheLeaderMidUpgradeHandsOverWithinTheLeaseAndOneWriterAtATime() throws Exception {
        OperatorProcess v1 = installedAndUpgradeable("1.0.0");
        Instant v1Stopped = Instant.now();
        v1.close();
        assertThat(admin.leases().inNamespace(NS).withName("hco-operator-lock").get())
                .as("a gracefully stopped leader hands its lease back").isNull();

        // two replicas of 2.0.0, each with its own ServiceAccount so the audit log tells them apart
        String tokenB = secondIdentity("hco-operator-b");
        olm.installCsv("2.0.0");
        OperatorProcess a = operator("hco-v2-a", "2.0.0");
        within(60).until(() -> a.readiness() == 200 && a.log().contains("became the leader"));
        assertThat(Duration.between(v1Stopped, Instant.now())).as("no wait for the released lease to expire")
                .isLessThan(Duration.ofSeconds(15));
        Instant bStarted = Instant.now();
        OperatorProcess b = OperatorProcess.start("hco-v2-b", api.kubeconfig("hco-operator-b", tokenB, NS), NS, "2.0.0",
                Map.of(), api.dir());
        operators.add(b);
        b.awaitReady(60);
        within(30).until(() -> "False/UpgradeInProgress".equals(olm.last("2.0.0")));
        simulator.runVersion("CDI", "2.0.0").runVersion("KubeVirt", "2.0.0");
        within(30).until(() -> simulator.converged("CDI", "2.0.0") && simulator.converged("KubeVirt", "2.0.0"));
        assertThat(b.log()).doesNotContain("became the leader");

        Instant killed = Instant.now();
        a.kill();
        within(60).until(() -> b.log().contains("became the leader"));
        Duration takeover = Duration.between(killed, Instant.now());
        System.out.println("[e2e] leader take-over after " + takeover.toMillis() + " ms");
        assertThat(takeover).isLessThan(Duration.ofSeconds(30));
        simulator.runVersion("NetworkAddonsConfig", "2.0.0").runVersion("SSP", "2.0.0");
        within(60).until(() -> olm.saw("2.0.0", "True"));

        List<AuditLog.Write> byB = AuditLog.by(api.auditLog(), "hco-operator-b", bStarted);
        List<AuditLog.Write> bBeforeKill = byB.stream().filter(w -> w.at().isBefore(killed))
                .filter(w -> !"leases".equals(w.resource())).toList();
        assertThat(bBeforeKill).as("a standby writes only its start-up Initializing").allSatisfy(
                w -> assertThat(w.what()).isEqualTo("patch operatorconditions " + OperatorProcess.operatorConditionName("2.0.0")));
        assertThat(bBeforeKill).hasSizeLessThanOrEqualTo(1);
        List<AuditLog.Write> aAfterKill = AuditLog.by(api.auditLog(), ClusterSetup.SERVICE_ACCOUNT, killed.plusSeconds(1));
        assertThat(aAfterKill).as("the killed leader writes nothing more").isEmpty();
    }

    /** A second ServiceAccount bound to the same generated ClusterRole; returns its token. */
    private String secondIdentity(String name) {
        admin.serviceAccounts().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                .withNewMetadata().withName(name).withNamespace(NS).endMetadata().build()).create();
        for (ClusterRoleBinding crb : admin.rbac().clusterRoleBindings().list().getItems()) {
            if (crb.getSubjects() != null && crb.getSubjects().stream()
                    .anyMatch(s -> ClusterSetup.SERVICE_ACCOUNT.equals(s.getName()))) {
                crb.getSubjects().add(new SubjectBuilder().withKind("ServiceAccount").withName(name).withNamespace(NS).build());
                admin.resource(crb).update();
            }
        }
        for (var rb : admin.rbac().roleBindings().inNamespace(NS).list().getItems()) {
            if (rb.getSubjects() != null && rb.getSubjects().stream()
                    .anyMatch(s -> ClusterSetup.SERVICE_ACCOUNT.equals(s.getName()))) {
                rb.getSubjects().add(new SubjectBuilder().withKind("ServiceAccount").withName(name).withNamespace(NS).build());
                admin.resource(rb).update();
            }
        }
        return ClusterSetup.token(admin, NS, name);
    }
}
