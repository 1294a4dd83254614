package io.kubevirt.hco.reconciler;

import io.kubevirt.hco.snapshot.StackSnapshots;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.HyperConvergedStatus;
import io.kubevirt.hco.api.v1beta1.RecordedVersion;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentSimulator;
import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;
import io.kubevirt.hco.simulator.GateAudit;
import io.kubevirt.hco.simulator.ComponentCrds;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;

/**
 * A new operator version (2.0.0) starts on a cluster that version 1.0.0 installed and recorded:
 * it must hold the gate from its first write until every component reports 2.0.0, whatever order
 * they upgrade in, and record 2.0.0 only then. The OLM-side audit checks every revision.
 */
@QuarkusTest
@TestProfile(UpgradeResumeTest.Version2.class)
@WithKubernetesTestServer(crud = true, setup = UpgradeResumeTest.InstalledByVersion1.class)
class UpgradeResumeTest {

    static final String NS = GateLifecycleTest.NS;
    static final String OC = "hco-operator.v2.0.0";

    @Inject
    KubernetesClient client;

    @Test
    void upgradeCompletesOnlyWhenEveryComponentReportsTheNewVersion() {
        Cluster cluster = new Cluster(client, NS);
        try (ComponentSimulator simulator = new ComponentSimulator(client, NS, "1.0.0");
                GateAudit audit = new GateAudit(cluster, NS, OC, (d, cr, v) -> simulator.convergedAsOf(cr, v), "2.0.0")) {
            simulator.start(100);
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.upgradeable(OC) != null
                    && "UpgradeInProgress".equals(cluster.upgradeable(OC).get("reason")));
            assertThat((String) cluster.upgradeable(OC).get("message")).contains("1.0.0", "2.0.0");

            // components upgrade one by one, one of them silent for a while after its upgrade
            for (String component : List.of("CDI", "KubeVirt", "NetworkAddonsConfig")) {
                simulator.runVersion(component, "2.0.0");
            }
            simulator.behave("SSP", Behaviour.SILENT).runVersion("SSP", "2.0.0");
            await().atMost(Duration.ofSeconds(30)).until(() -> String.valueOf(cluster.upgradeable(OC).get("message"))
                    .contains("SSP"));
            assertThat(cluster.upgradeable(OC).get("status")).isEqualTo("False");
            assertThat(StackSnapshots.recordedVersion(cluster.hyperConverged(HyperConverged.SINGLETON_NAME)))
                    .isEqualTo("1.0.0");

            simulator.behave("SSP", Behaviour.HEALTHY);
            await().atMost(Duration.ofSeconds(30)).until(() -> "True".equals(cluster.upgradeable(OC).get("status")));
            assertThat(StackSnapshots.recordedVersion(cluster.hyperConverged(HyperConverged.SINGLETON_NAME)))
                    .isEqualTo("2.0.0");
            assertThat(audit.violations()).isEmpty();
            assertThat(audit.revisions()).contains("False/UpgradeInProgress").last().isEqualTo("True/AsExpected");
        }
    }

    public static class Version2 implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hco.operator-version", "2.0.0", "hco.operator-condition-name", OC,
                    "KUBEVIRT_VERSION", "2.0.0", "CDI_VERSION", "2.0.0", "NETWORK_ADDONS_VERSION", "2.0.0",
                    "SSP_VERSION", "2.0.0");
        }
    }

    /** The cluster as version 1.0.0 left it: HyperConverged with 1.0.0 recorded, OLM's new OperatorCondition. */
    public static class InstalledByVersion1 implements Consumer<KubernetesServer> {
        @Override
        public void accept(KubernetesServer server) {
            KubernetesClient c = server.getClient();
            ComponentCrds.install(c);
            new Cluster(c, NS).createOperatorCondition(OC);
            HyperConverged hco = new HyperConverged();
            hco.setMetadata(new ObjectMetaBuilder().withName(HyperConverged.SINGLETON_NAME).withNamespace(NS).build());
            HyperConvergedStatus status = new HyperConvergedStatus();
            status.versions.add(new RecordedVersion(StackSnapshots.OPERATOR_VERSION_RECORD, "1.0.0"));
            hco.setStatus(status);
            c.resource(hco).create();
        }
    }
}
