package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.snapshot.StackSnapshots;
import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;

/** Scenarios 1–3 and 7 of the e2e issue, on a real API server. */
class InstallAndUpgradeIT extends E2eScenario {

    @Test
    void freshInstallKeepsTheGateClosedUntilEveryComponentReports() throws Exception {
        olm.installCsv("1.0.0");
        OperatorProcess v1 = operator("hco-v1", "1.0.0");
        v1.awaitReady(60);
        createHyperConverged();
        within(30).until(() -> ComponentCatalog.ALL.stream().allMatch(d -> cluster.component(d) != null));
        assertThat(olm.upgradeable("1.0.0")).isFalse();
        simulator.watch();
        within(60).until(() -> olm.saw("1.0.0", "True"));
        within(10).until(() -> olm.upgradeable("1.0.0"));
        assertThat(StackSnapshots.recordedVersion(cluster.hyperConverged(HyperConverged.SINGLETON_NAME))).isEqualTo("1.0.0");
    }

    @Test
    void aSilentComponentHoldsTheGateForAsLongAsItIsSilent() throws Exception {
        olm.installCsv("1.0.0");
        OperatorProcess v1 = operator("hco-v1", "1.0.0");
        v1.awaitReady(60);
        createHyperConverged();
        simulator.behave("SSP", Behaviour.SILENT).watch();
        within(30).until(() -> "False/ComponentNotReporting".equals(olm.last("1.0.0")));
        holdsFor(Duration.ofSeconds(Integer.getInteger("hco.e2e.silent-seconds", 30)), () -> !olm.upgradeable("1.0.0"),
                "OLM must not read Upgradeable while SSP is silent");
        simulator.behave("SSP", Behaviour.HEALTHY);
        within(30).until(() -> olm.saw("1.0.0", "True"));
    }

    @Test
    void upgradeInRandomOrderRecordsTheNewVersionOnlyAtTheEnd() throws Exception {
        installedAndUpgradeable("1.0.0");
        long seed = Long.getLong("hco.e2e.seed", System.nanoTime());
        System.out.println("[e2e] upgrade order seed " + seed + " (rerun with -Dhco.e2e.seed=" + seed + ")");
        Random random = new Random(seed);
        List<ComponentDescriptor> order = new ArrayList<>(ComponentCatalog.ALL);
        Collections.shuffle(order, random);

        olm.installCsv("2.0.0");
        operators.get(0).close();
        OperatorProcess v2 = operator("hco-v2", "2.0.0");
        v2.awaitReady(60);
        within(30).until(() -> "False/UpgradeInProgress".equals(olm.last("2.0.0")));
        for (ComponentDescriptor d : order) {
            Thread.sleep(200 + random.nextInt(1500));
            assertThat(olm.upgradeable("2.0.0")).as("before " + d.name() + " upgraded").isFalse();
            assertThat(StackSnapshots.recordedVersion(cluster.hyperConverged(HyperConverged.SINGLETON_NAME)))
                    .isEqualTo("1.0.0");
            simulator.runVersion(d.name(), "2.0.0");
        }
        within(60).until(() -> olm.saw("2.0.0", "True"));
        assertThat(StackSnapshots.recordedVersion(cluster.hyperConverged(HyperConverged.SINGLETON_NAME))).isEqualTo("2.0.0");
    }

    @Test
    void anOperatorKilledMidUpgradeResumesAndNeverOpensEarly() throws Exception {
        installedAndUpgradeable("1.0.0");
        olm.installCsv("2.0.0");
        operators.get(0).close();
        OperatorProcess v2 = operator("hco-v2-a", "2.0.0");
        within(60).until(() -> "False/UpgradeInProgress".equals(olm.last("2.0.0")));
        simulator.runVersion("CDI", "2.0.0").runVersion("SSP", "2.0.0");
        // killed once the stack is really half-upgraded (ground truth), not before
        within(30).until(() -> simulator.converged("CDI", "2.0.0") && simulator.converged("SSP", "2.0.0"));
        v2.kill();
        assertThat(olm.upgradeable("2.0.0")).isFalse();
        OperatorProcess again = operator("hco-v2-b", "2.0.0");
        again.awaitReady(60);
        holdsFor(Duration.ofSeconds(5), () -> !olm.upgradeable("2.0.0"), "half-upgraded stack after restart");
        simulator.runVersion("KubeVirt", "2.0.0").runVersion("NetworkAddonsConfig", "2.0.0");
        within(60).until(() -> olm.saw("2.0.0", "True"));
    }
}
