package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentSimulator;

/**
 * One scenario = one fresh etcd + kube-apiserver, the operator's CRDs and RBAC, the simulator and
 * the OLM stand-in. After each scenario the audit must be clean; a per-scenario timing table is
 * printed at the end.
 */
abstract class E2eScenario {

    static final String NS = "kubevirt-hyperconverged";
    private static final List<String> TIMINGS = new ArrayList<>();

    RealApiServer api;
    KubernetesClient admin;
    String operatorToken;
    Cluster cluster;
    ComponentSimulator simulator;
    OlmStandIn olm;
    final List<OperatorProcess> operators = new ArrayList<>();
    private Instant started;
    private String scenario;

    @BeforeEach
    void startCluster(TestInfo info) throws Exception {
        scenario = info.getTestClass().map(Class::getSimpleName).orElse("?") + "." + info.getDisplayName();
        started = Instant.now();
        api = new RealApiServer().start();
        admin = api.admin();
        ClusterSetup.installCrds(admin);
        operatorToken = ClusterSetup.installOperatorIdentity(admin, NS);
        cluster = new Cluster(admin, NS);
        simulator = new ComponentSimulator(admin, NS, "1.0.0");
        olm = new OlmStandIn(admin, NS, simulator);
    }

    @AfterEach
    void stopCluster() throws Exception {
        try {
            simulator.close();
            for (OperatorProcess op : operators) {
                op.close();
            }
            olm.close();
            assertThat(olm.violations()).as("OLM-side audit: Upgradeable=True while not converged (revisions seen: "
                    + olm.revisions() + ")").isEmpty();
        } finally {
            api.close();
            TIMINGS.add(String.format("| %-70s | %6.1f s |", scenario,
                    Duration.between(started, Instant.now()).toMillis() / 1000.0));
        }
    }

    @AfterAll
    static void printTimings() {
        System.out.println("\n| scenario | wall time |\n|---|---|");
        TIMINGS.forEach(System.out::println);
    }

    OperatorProcess operator(String name, String version) throws Exception {
        return operator(name, version, Map.of());
    }

    OperatorProcess operator(String name, String version, Map<String, String> env) throws Exception {
        return operator(name, version, env, OperatorLaunch.standard());
    }

    OperatorProcess operator(String name, String version, Map<String, String> env, OperatorLaunch launch)
            throws Exception {
        Path kubeconfig = api.kubeconfig("hco-operator", operatorToken, NS);
        OperatorProcess op = OperatorProcess.start(name, kubeconfig, NS, version, env, api.dir(), launch);
        operators.add(op);
        return op;
    }

    /** {@code version} installed from scratch, every component reporting it, and its gate open. */
    OperatorProcess installedAndUpgradeable(String version) throws Exception {
        olm.installCsv(version);
        OperatorProcess op = operator("hco-v" + version, version);
        op.awaitReady(60);
        createHyperConverged();
        simulator.watch();
        within(60).until(() -> olm.saw(version, "True"));
        return op;
    }

    /**
     * An administrator's spec edit: read, change, update; on a conflict (the operator wrote the
     * status meanwhile) read again and redo it, as kubectl users do.
     */
    void editHyperConverged(java.util.function.Consumer<HyperConverged> change) {
        editHyperConverged(admin, cluster, change);
    }

    /**
     * An administrator's spec edit: read, change, update; on a 409 (the operator wrote the status
     * in between) read again and retry, as kubectl edit would have the user do.
     */
    static void editHyperConverged(io.fabric8.kubernetes.client.KubernetesClient admin, Cluster cluster,
            java.util.function.Consumer<HyperConverged> change) {
        for (int attempt = 1;; attempt++) {
            HyperConverged hco = cluster.hyperConverged(HyperConverged.SINGLETON_NAME);
            change.accept(hco);
            try {
                admin.resource(hco).update();
                return;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    HyperConverged createHyperConverged() {
        return cluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
    }

    static ConditionFactory within(int seconds) {
        return Awaitility.await().atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(100));
    }

    /** Asserts {@code condition} holds at every check for the whole {@code period} (an invariant, not a wait). */
    static void holdsFor(Duration period, Callable<Boolean> condition, String what) throws Exception {
        Instant end = Instant.now().plus(period);
        while (Instant.now().isBefore(end)) {
            assertThat(condition.call()).as(what).isTrue();
            Thread.sleep(100);
        }
    }
}
