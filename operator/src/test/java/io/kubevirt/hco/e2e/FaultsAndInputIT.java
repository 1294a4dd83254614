package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kubevirt.hco.api.v1beta1.CertRotation;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.gate.OperatorConditionWriter;
import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;

/** Scenarios 9–12 of the e2e issue: API outage, conflicting writers, bad input, metrics while not ready. */
class FaultsAndInputIT extends E2eScenario {

    /**
     * The API server goes away while the gate is open, and the cluster changes meanwhile (through
     * another API server of the same cluster): the HyperConverged is edited in a way that reaches
     * every component, and the OperatorCondition's conditions are emptied. Liveness stays UP, the
     * process is not restarted, and once the API server is back every informer catches up: the gate
     * closes for the change, each component CR gets the new intent, the OperatorCondition carries the
     * decision again, the gate reopens, and it still follows the components afterwards.
     */
    @Test
    void anApiServerOutageWithChangesMeanwhileIsCaughtUpByEveryInformerWithoutRestart() throws Exception {
        olm.installCsv("1.0.0");
        // a renew deadline longer than the outage, as the production defaults have
        OperatorProcess v1 = operator("hco-v1", "1.0.0",
                Map.of("HCO_LEASE_DURATION", "45s", "HCO_LEASE_RENEW_DEADLINE", "35s"));
        v1.awaitReady(60);
        createHyperConverged();
        simulator.watch();
        within(60).until(() -> olm.saw("1.0.0", "True"));
        Map<String, String> intentBefore = new java.util.HashMap<>();
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            intentBefore.put(d.name(), specHash(d));
        }
        int seen = olm.revisions().size();

        java.util.List<String> livenessDown = new java.util.concurrent.CopyOnWriteArrayList<>();
        AtomicBoolean probing = new AtomicBoolean(true);
        Thread prober = new Thread(() -> {
            while (probing.get()) {
                String report = v1.livenessReport();
                if (!report.startsWith("200")) {
                    livenessDown.add(report);
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        prober.start();
        api.outage(Duration.ofSeconds(Integer.getInteger("hco.e2e.outage-seconds", 20)), other -> {
            other.genericKubernetesResources("hco.kubevirt.io/v1beta1", "HyperConverged").inNamespace(NS)
                    .withName(HyperConverged.SINGLETON_NAME).patch(
                            io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                    io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                            "{\"spec\":{\"tlsSecurityProfile\":{\"type\":\"Old\",\"old\":{}}}}");
            other.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(NS)
                    .withName(OperatorProcess.operatorConditionName("1.0.0")).edit(oc -> {
                        oc.getAdditionalProperties().put("spec", new java.util.HashMap<>(Map.of("conditions", List.of())));
                        return oc;
                    });
        });
        probing.set(false);
        prober.join();
        assertThat(livenessDown).as("liveness stayed UP through the outage").isEmpty();
        assertThat(v1.alive()).isTrue();

        // the HyperConverged informer caught up: the gate closes for the change, each component
        // informer too: every CR carries the new intent, and their statuses reopen the gate
        within(90).until(() -> after(seen).stream().anyMatch(r -> r.contains(": False/")));
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            within(90).until(() -> !intentBefore.get(d.name()).equals(specHash(d)));
        }
        within(90).until(() -> {
            List<String> since = after(seen);
            int closed = indexOf(since, ": False/");
            return closed >= 0 && since.subList(closed, since.size()).stream().anyMatch(r -> r.contains(": True/"));
        });
        // the OperatorCondition informer caught up: the emptied conditions carry the decision again
        within(30).until(() -> olm.written("1.0.0") != null);
        assertThat(v1.alive()).as("recovered without a restart").isTrue();

        // and it still follows the components
        simulator.behave("SSP", Behaviour.DEGRADED);
        within(60).until(() -> "False/ComponentDegraded".equals(olm.last("1.0.0")));
    }

    private List<String> after(int seen) {
        List<String> all = List.copyOf(olm.revisions());
        return all.subList(Math.min(seen, all.size()), all.size());
    }

    private static int indexOf(List<String> revisions, String status) {
        for (int i = 0; i < revisions.size(); i++) {
            if (revisions.get(i).contains(status)) {
                return i;
            }
        }
        return -1;
    }

    private String specHash(ComponentDescriptor d) {
        var cr = ComponentResources.managed(admin, d, NS).get();
        return cr == null || cr.getMetadata().getAnnotations() == null ? ""
                : String.valueOf(cr.getMetadata().getAnnotations().get(io.kubevirt.hco.snapshot.WrittenSpecs.SPEC_HASH));
    }

    @Test
    void aSecondWriterBumpingEverythingCausesNoLostGateUpdateAndNoHotLoop() throws Exception {
        installedAndUpgradeable("1.0.0");

        AtomicBoolean bumping = new AtomicBoolean(true);
        AtomicInteger bumps = new AtomicInteger();
        Thread other = new Thread(() -> {
            while (bumping.get()) {
                try {
                    String n = Integer.toString(bumps.incrementAndGet());
                    admin.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(NS)
                            .withName(OperatorProcess.operatorConditionName("1.0.0"))
                            .edit(oc -> { oc.getMetadata().getLabels(); oc.getMetadata().setAnnotations(Map.of("bump", n)); return oc; });
                    for (ComponentDescriptor d : ComponentCatalog.ALL) {
                        ComponentResources.managed(admin, d, NS).edit(cr -> {
                            cr.getMetadata().setAnnotations(new java.util.HashMap<>(cr.getMetadata().getAnnotations()));
                            cr.getMetadata().getAnnotations().put("other-writer/bump", n);
                            return cr;
                        });
                    }
                    Thread.sleep(100);
                } catch (KubernetesClientException conflict) {
                    // the operator won that race; keep bumping
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        other.start();
        try {
            Instant steady = Instant.now();
            Thread.sleep(10_000);
            List<AuditLog.Write> writes = AuditLog.by(api.auditLog(), ClusterSetup.SERVICE_ACCOUNT, steady);
            System.out.println("[e2e] operator writes during 10 s of " + bumps.get() + " foreign bumps: " + writes.size());
            assertThat(writes).as("no hot loop: nothing changed that the operator owns").hasSizeLessThan(10);

            simulator.behave("CDI", Behaviour.DEGRADED);
            within(60).until(() -> "False/ComponentDegraded".equals(olm.last("1.0.0")));
            assertThat(olm.upgradeable("1.0.0")).isFalse();
            simulator.behave("CDI", Behaviour.HEALTHY);
            within(60).until(() -> "True/AsExpected".equals(olm.last("1.0.0")));
        } finally {
            bumping.set(false);
            other.join();
        }
        var oc = admin.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(NS)
                .withName(OperatorProcess.operatorConditionName("1.0.0")).get();
        assertThat(oc.getMetadata().getAnnotations()).containsKey("bump");
    }

    @Test
    void badInputIsRejectedOrReportedNeverSwallowed() throws Exception {
        olm.installCsv("1.0.0");
        OperatorProcess v1 = operator("hco-v1", "1.0.0");
        v1.awaitReady(60);

        HyperConverged renewTooLate = hco(HyperConverged.SINGLETON_NAME);
        renewTooLate.getSpec().certConfig.ca = new CertRotation("24h0m0s", "48h0m0s");
        assertThatThrownBy(() -> admin.resource(renewTooLate).create()).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("renewBefore must be shorter than duration");

        HyperConverged tooManyOutbound = hco(HyperConverged.SINGLETON_NAME);
        tooManyOutbound.getSpec().liveMigrationConfig.parallelMigrationsPerCluster = 2;
        tooManyOutbound.getSpec().liveMigrationConfig.parallelOutboundMigrationsPerNode = 5;
        assertThatThrownBy(() -> admin.resource(tooManyOutbound).create()).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("parallelOutboundMigrationsPerNode cannot exceed parallelMigrationsPerCluster");

        HyperConverged badDuration = hco(HyperConverged.SINGLETON_NAME);
        badDuration.getSpec().certConfig.server = new CertRotation("one day", "1h");
        assertThatThrownBy(() -> admin.resource(badDuration).create()).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("spec.certConfig.server.duration");

        // another name: refused by the API server (the CRD's CEL rule, as upstream's); the operator's
        // own InvalidRequest status stays for CRDs of older releases (GateLifecycleTest)
        assertThatThrownBy(() -> admin.resource(hco("somewhere-else")).create()).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("the HyperConverged is a singleton named kubevirt-hyperconverged");
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            assertThat(cluster.component(d)).as(d.name()).isNull();
        }

        createHyperConverged();
        simulator.behave("NetworkAddonsConfig", Behaviour.GARBAGE).watch();
        within(60).until(() -> "False/ComponentNotReporting".equals(olm.last("1.0.0"))
                && String.valueOf(olm.written("1.0.0").get("message")).startsWith("NetworkAddonsConfig"));
        assertThat(v1.alive()).isTrue();
        simulator.behave("NetworkAddonsConfig", Behaviour.HEALTHY);
        within(60).until(() -> olm.saw("1.0.0", "True"));
    }

    @Test
    void metricsAreServedWhileReadinessIsDownInReadinessGateMode() throws Exception {
        OperatorProcess v1 = installedAndUpgradeable("1.0.0");
        v1.close();

        // an OLM without OperatorCondition support: no OPERATOR_CONDITION_NAME, readiness is the gate
        Map<String, String> readinessMode = new java.util.HashMap<>();
        readinessMode.put("OPERATOR_CONDITION_NAME", null);
        readinessMode.put("HCO_GATE_MODE", "readiness");
        OperatorProcess v2 = operator("hco-v2", "2.0.0", readinessMode);
        within(60).until(() -> v2.metrics().contains("kubevirt_hco_upgrade_in_progress 1.0"));
        assertThat(v2.readiness()).isEqualTo(503);
        assertThat(v2.liveness()).isEqualTo(200);
        simulator.runVersionAll("2.0.0");
        v2.awaitReady(90);
        assertThat(v2.metrics()).contains("kubevirt_hco_upgrade_in_progress 0.0");
    }

    private static HyperConverged hco(String name) {
        HyperConverged hco = new HyperConverged();
        hco.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).withNamespace(NS).build());
        return hco;
    }
}
