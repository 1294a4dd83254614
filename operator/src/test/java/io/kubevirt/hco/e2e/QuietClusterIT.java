package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kubevirt.hco.api.v1beta1.GateBlocker;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;

/**
 * A quiet cluster: the component operators write only on change (event-only simulator), so the
 * only wake-ups the operator gets are the ones it arranges. Each scenario is a path where OLM once
 * could read a stale value.
 */
class QuietClusterIT extends E2eScenario {

    @Test
    void aDeletedAndRecreatedOperatorConditionGetsTheDecisionBackAtOnce() throws Exception {
        installedAndUpgradeable("1.0.0");
        simulator.behave("SSP", Behaviour.DEGRADED);
        within(30).until(() -> "False/ComponentDegraded".equals(olm.last("1.0.0")));
        long writesBefore = simulator.statusWrites();
        olm.deleteAndRecreate("1.0.0");
        // no component writes anything: only the OperatorCondition's own watch can wake the operator
        within(3).until(() -> {
            Map<String, Object> c = olm.written("1.0.0");
            return c != null && "False".equals(c.get("status")) && "ComponentDegraded".equals(c.get("reason"));
        });
        assertThat(simulator.statusWrites()).as("the stack stayed quiet").isEqualTo(writesBefore);
    }

    /**
     * An installed stack costs the idle poll no request: the HyperConverged in the reconciler's cache
     * is the reconciler's to decide on. The leader used to read it fresh at every poll (every 10 s in
     * production, every second here) for as long as the stack was installed.
     */
    @Test
    void whileTheStackIsInstalledTheIdlePollReadsNothing() throws Exception {
        installedAndUpgradeable("1.0.0");
        Instant from = Instant.now();
        // the lease is renewed every 2 s and the idle poll runs every second: three renewals span four polls at least
        within(30).until(() -> requestsSince(from).stream()
                .filter(r -> "leases".equals(r.resource()) && !"get".equals(r.verb())).count() >= 3);
        assertThat(requestsSince(from)).as("the leader's reads of the HyperConverged while nothing changed")
                .filteredOn(r -> "get".equals(r.verb()) && "hyperconvergeds".equals(r.resource())).isEmpty();
    }

    private List<AuditLog.Write> requestsSince(Instant from) throws IOException {
        return AuditLog.requestsBy(api.auditLog(), NS, ClusterSetup.SERVICE_ACCOUNT, from);
    }

    @Test
    void aRestartedStandbyDoesNotLeaveItsInitializingOverTheLeadersTrue() throws Exception {
        OperatorProcess leader = installedAndUpgradeable("1.0.0");
        OperatorProcess standby = operator("hco-v1-standby", "1.0.0");
        standby.awaitReady(60);
        within(10).until(() -> olm.upgradeable("1.0.0"));
        standby.kill();
        OperatorProcess restarted = operator("hco-v1-standby-2", "1.0.0");
        restarted.awaitReady(60);
        // the restarted standby's start-up write (False/Initializing) is always safe; the leader sees
        // it through its watch and re-asserts its decision, without any component event
        within(5).until(() -> olm.upgradeable("1.0.0") && "True".equals(olm.written("1.0.0").get("status")));
        assertThat(leader.alive()).isTrue();
    }

    @Test
    void aRefusedComponentDeletionKeepsTheGateClosedAndTheStatusSaysWhy() throws Exception {
        installedAndUpgradeable("1.0.0");
        // what KubeVirt's own webhook does while VMs exist (uninstallStrategy BlockUninstallIfWorkloadsExist)
        HasMetadata policy = ClusterSetup.create(admin, """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: kubevirt-workloads-exist}
                spec:
                  failurePolicy: Fail
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [kubevirt.io]
                      apiVersions: [v1]
                      operations: [DELETE]
                      resources: [kubevirts]
                  validations:
                  - expression: "false"
                    message: there are still VirtualMachineInstances running; remove them first
                """);
        HasMetadata binding = ClusterSetup.create(admin, """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: kubevirt-workloads-exist}
                spec: {policyName: kubevirt-workloads-exist, validationActions: [Deny]}
                """);
        within(10).until(() -> refusesDeletion());
        admin.resources(HyperConverged.class).inNamespace(NS).withName(HyperConverged.SINGLETON_NAME).delete();
        within(15).until(() -> "False/HyperConvergedMissing".equals(olm.last("1.0.0")));
        within(30).until(() -> {
            HyperConverged hco = cluster.hyperConverged(HyperConverged.SINGLETON_NAME);
            return hco != null && hco.getStatus() != null && hco.getStatus().blockers.stream()
                    .anyMatch(b -> "DeletionRefused".equals(b.reason) && b.message.contains("VirtualMachineInstances"));
        });
        GateBlocker first = cluster.hyperConverged(HyperConverged.SINGLETON_NAME).getStatus().blockers.get(0);
        assertThat(first.component).isEqualTo("KubeVirt");
        assertThat(olm.upgradeable("1.0.0")).isFalse();
        // the workloads are gone: the deletion goes through and nothing is left behind
        admin.resource(binding).delete();
        admin.resource(policy).delete();
        within(60).until(() -> cluster.hyperConverged(HyperConverged.SINGLETON_NAME) == null
                && cluster.component(ComponentCatalog.KUBEVIRT) == null);
    }

    /**
     * Readiness gate mode (an OLM without OperatorCondition support, the chart's default without
     * OLM) with two replicas, as the chart deploys it: the standby takes no decision, yet it must
     * turn ready once the leader's upgrade settled, or a rolling update never completes. Neither
     * turns ready before the stabilization window has passed.
     */
    @Test
    void inReadinessModeBothReplicasTurnReadyOnlyOnceTheUpgradeSettled() throws Exception {
        OperatorProcess v1 = installedAndUpgradeable("1.0.0");
        v1.close();
        Map<String, String> readinessMode = new java.util.HashMap<>();
        readinessMode.put("OPERATOR_CONDITION_NAME", null);
        readinessMode.put("HCO_GATE_MODE", "readiness");
        readinessMode.put("HCO_STABILIZATION_WINDOW", "4s");
        OperatorProcess a = operator("hco-v2-a", "2.0.0", readinessMode);
        within(60).until(() -> a.metrics().contains("kubevirt_hco_upgrade_in_progress 1.0"));
        OperatorProcess b = operator("hco-v2-b", "2.0.0", readinessMode);
        within(60).until(() -> b.liveness() == 200);
        assertThat(a.readiness()).isEqualTo(503);
        assertThat(b.readiness()).isEqualTo(503);
        simulator.runVersionAll("2.0.0");
        within(60).until(() -> io.kubevirt.hco.snapshot.StackSnapshots
                .recordedVersion(cluster.hyperConverged(HyperConverged.SINGLETON_NAME)) != null
                && "2.0.0".equals(io.kubevirt.hco.snapshot.StackSnapshots
                        .recordedVersion(cluster.hyperConverged(HyperConverged.SINGLETON_NAME))));
        java.time.Instant recorded = java.time.Instant.now();
        within(60).until(() -> a.readiness() == 200 && b.readiness() == 200);
        assertThat(java.time.Duration.between(recorded, java.time.Instant.now()))
                .as("readiness waits for the stabilization window").isGreaterThanOrEqualTo(java.time.Duration.ofSeconds(3));
    }

    /**
     * No HyperConverged: only the absent-stack check decides, with fresh reads. When they fail (here:
     * the API server refuses the GET, 403), what OLM reads turns False/EvaluationError instead of
     * staying the last True (the failure used to be swallowed), and True again once reads work.
     */
    @Test
    void aFailingAbsentStackCheckClosesTheGate() throws Exception {
        olm.installCsv("1.0.0");
        OperatorProcess op = operator("hco-v1", "1.0.0");
        within(60).until(() -> op.readiness() == 200 && "True/NoStackInstalled".equals(olm.last("1.0.0")));
        var role = admin.rbac().roles().inNamespace(NS).withName("hco-operator");
        var granted = role.get().getRules();
        role.edit(r -> {
            r.getRules().stream().filter(rule -> rule.getResources().contains("hyperconvergeds")).findFirst()
                    .orElseThrow().getVerbs().remove("get");
            return r;
        });
        within(30).until(() -> "False/EvaluationError".equals(olm.last("1.0.0")));
        assertThat(olm.upgradeable("1.0.0")).isFalse();
        role.edit(r -> {
            r.setRules(granted);
            return r;
        });
        within(30).until(() -> "True/NoStackInstalled".equals(olm.last("1.0.0")));
    }

    /**
     * No HyperConverged and nothing else happening: "nothing installed" opens when its stabilization
     * window ends, not at the next idle poll (here two minutes away). Readiness gate mode waits for
     * that opening, so a late one held up {@code helm install --wait}.
     */
    @Test
    void nothingInstalledOpensWhenTheWindowEndsNotAtTheNextPoll() throws Exception {
        olm.installCsv("1.0.0");
        OperatorProcess op = operator("hco-v1", "1.0.0", Map.of("HCO_IDLE_POLL_INTERVAL", "120s",
                "HCO_STABILIZATION_WINDOW", "3s"));
        op.awaitReady(60);
        within(15).until(() -> "True/NoStackInstalled".equals(olm.last("1.0.0")));
    }

    /**
     * {@code kubectl port-forward deploy/hco-operator} lands on either pod: the standby, which takes no
     * decision, answers with the one the leader published and names the leader, in text and JSON.
     */
    @Test
    void theStandbyAnswersTheExplainEndpointWithTheLeadersPublishedDecision() throws Exception {
        OperatorProcess leader = installedAndUpgradeable("1.0.0");
        OperatorProcess standby = operator("hco-v1-standby", "1.0.0");
        standby.awaitReady(60);
        String text = standby.getPatiently("/q/hco/gate?format=text", null);
        assertThat(text).startsWith("200").contains("is a standby", "the leader is " + leader.name(),
                "Upgradeable=True (AsExpected)");
        simulator.behave("SSP", Behaviour.DEGRADED);
        within(30).until(() -> standby.get("/q/hco/gate?format=text", null).contains("Upgradeable=False (ComponentDegraded)"));
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(standby.getPatiently("/q/hco/gate", null).substring(4));
        assertThat(json.get("leader").asText()).isEqualTo(leader.name());
        assertThat(json.get("reason").asText()).isEqualTo("ComponentDegraded");
        assertThat(json.get("blockers").findValuesAsText("component")).contains("SSP");
        // the leader still explains in full
        assertThat(leader.getPatiently("/q/hco/gate?format=text", null)).startsWith("200").contains("SSP");
    }

    /** The policy is in force (policies take a moment to load): a dry-run delete is refused. */
    private boolean refusesDeletion() {
        try {
            io.kubevirt.hco.components.ComponentResources.managed(admin, ComponentCatalog.KUBEVIRT, NS).dryRun().delete();
            return false;
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            return e.getCode() == 403 || e.getCode() == 422;
        }
    }
}
