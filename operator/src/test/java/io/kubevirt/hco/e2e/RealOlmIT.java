package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.gate.OperatorConditionWriter;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentSimulator;
import io.kubevirt.hco.simulator.StackHistory;
import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;
import io.kubevirt.hco.simulator.ComponentCrds;

/**
 * OLM's own olm-operator in the loop: the bundle's CSV is installed and upgraded by OLM, which
 * reads our OperatorCondition; the operator runs as the pods OLM's Deployment gets (PodRunner), so
 * every decision about installing, holding and replacing a version is OLM's, not a stand-in's.
 * The bundle is the bundle image's, and the pods run the operator image it names by digest, as a
 * container (ContainerRun): deployed as a container through OLM.
 */
class RealOlmIT {

    static final String NS = "kubevirt-hyperconverged";
    static final Duration INSTALL = Duration.ofMinutes(3);
    private static final List<String> TIMINGS = new ArrayList<>();

    RealOlm olm;
    KubernetesClient admin;
    PodRunner kubelet;
    ComponentSimulator simulator;
    Cluster cluster;
    OlmAudit audit;
    private Instant started;
    private String scenario;
    /** Whether the CSVs carry the component operators (run as pods), not only hco-operator. */
    private boolean componentOperatorPods;
    /** The scenario whose cluster runs the real virt-operator and cluster-network-addons-operator. */
    static final String REAL_OPERATORS = "real-operators";
    /** The KubeVirt and network add-ons versions the CSV tells its operators, when they are the real ones. */
    private Map<String, String> realVersions = Map.of();

    @BeforeEach
    void startCluster(TestInfo info) throws Exception {
        scenario = info.getDisplayName();
        started = Instant.now();
        olm = RealOlm.start(info.getTags().contains(REAL_OPERATORS));
        admin = olm.admin;
        ClusterSetup.createNamespace(admin, NS);
        admin.genericKubernetesResources("operators.coreos.com/v1", "OperatorGroup").inNamespace(NS)
                .resource(object("operators.coreos.com/v1", "OperatorGroup", "hco-operators",
                        Map.of("targetNamespaces", List.of(NS))))
                .create();
        // what the catalog operator would apply from the bundle before the CSV: its CRD
        for (HasMetadata crd : bundleManifest("hyperconvergeds.hco.kubevirt.io.crd.yaml")) {
            admin.resource(crd).create();
        }
        ComponentCrds.installComponents(admin);
        cluster = new Cluster(admin, NS);
        simulator = new ComponentSimulator(admin, NS, "1.0.0");
        audit = new OlmAudit(admin, NS, this::truthAt);
        kubelet = olm.kubelet(NS);
    }

    @AfterEach
    void stopCluster() throws Exception {
        try {
            if (audit != null) {
                System.out.println("[" + scenario + "] OLM's record (resourceVersion order):");
                audit.print(line -> System.out.println("  " + line));
            }
            for (AutoCloseable part : new AutoCloseable[] { simulator, kubelet, audit }) {
                if (part != null) {
                    part.close();
                }
            }
        } finally {
            if (olm != null) {
                olm.close();
            }
            TIMINGS.add(String.format("| %-60s | %6.1f s |", scenario,
                    Duration.between(started, Instant.now()).toMillis() / 1000.0));
        }
    }

    @AfterAll
    static void printTimings() {
        System.out.println("\n| scenario (real OLM) | wall time |\n|---|---|");
        TIMINGS.forEach(System.out::println);
    }

    @Test
    void installSucceedsOnlyAfterTheGateIsHeld() throws Exception {
        createCsv("1.0.0", null);
        awaitPhase("1.0.0", "Succeeded");

        Deployment deployment = admin.apps().deployments().inNamespace(NS).withName("hco-operator").get();
        assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .as("OLM injects the OperatorCondition's name")
                .anyMatch(e -> "OPERATOR_CONDITION_NAME".equals(e.getName()) && csvName("1.0.0").equals(e.getValue()));
        assertThat(admin.rbac().roles().inNamespace(NS).list().getItems())
                .as("OLM grants the operator its OperatorCondition").anyMatch(this::grantsOperatorCondition);
        OlmAudit.Revision held = audit.of("OperatorCondition", csvName("1.0.0")).stream()
                .filter(r -> "False".equals(r.status()) && "Initializing".equals(r.reason())).findFirst().orElse(null);
        assertThat(held).as("Upgradeable=False/Initializing written").isNotNull();
        assertThat(audit.firstPhase(csvName("1.0.0"), "Succeeded").resourceVersion())
                .as("the CSV succeeded only after the gate was held").isGreaterThan(held.resourceVersion());

        cluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
        simulator.watch();
        awaitUpgradeable("1.0.0", true);
    }

    @Test
    void anUpgradeWaitsForTheGateThenOlmReplacesTheVersion() throws Exception {
        installed("1.0.0");
        simulator.behave("KubeVirt", Behaviour.PROGRESSING);
        awaitUpgradeable("1.0.0", false);

        createCsv("2.0.0", "1.0.0");
        awaitPhase("2.0.0", "Pending/OperatorConditionNotUpgradeable");
        assertThat(message("2.0.0")).as("OLM passes on our message").contains("KubeVirt", "Progressing");
        long heldFrom = audit.latestRevision();
        observe(HOLD, () -> assertThat(phase("2.0.0")).startsWith("Pending/OperatorConditionNotUpgradeable"));

        simulator.behave("KubeVirt", Behaviour.HEALTHY);
        awaitPhase("2.0.0", "Succeeded");
        await("v1 deleted by OLM").atMost(INSTALL).until(() -> "absent".equals(phase("1.0.0")));
        assertNotPastPendingWhileHeld("2.0.0", "1.0.0", heldFrom);
        assertHeldBeforeSucceeded("2.0.0");

        simulator.runVersionAll("2.0.0");
        awaitUpgradeable("2.0.0", true);
        assertNoUpgradeableWithoutConvergence();
    }

    @Test
    void backToBackReleasesAreTakenOneCompletedUpgradeAtATime() throws Exception {
        installed("1.0.0");
        simulator.behave("KubeVirt", Behaviour.PROGRESSING);
        awaitUpgradeable("1.0.0", false);
        createCsv("2.0.0", "1.0.0");
        createCsv("3.0.0", "2.0.0");
        awaitPhase("2.0.0", "Pending/OperatorConditionNotUpgradeable");

        simulator.behave("KubeVirt", Behaviour.HEALTHY);
        awaitPhase("2.0.0", "Succeeded");
        // v2 runs now, upgrading the stack from 1.0.0: v3 must wait for that upgrade to complete
        awaitUpgradeable("2.0.0", false);
        observe(HOLD, () -> assertThat(phase("3.0.0")).startsWith("Pending/"));
        simulator.runVersionAll("2.0.0");
        awaitPhase("3.0.0", "Succeeded");
        simulator.runVersionAll("3.0.0");
        awaitUpgradeable("3.0.0", true);

        OlmAudit.Revision v3Leaves = audit.of("CSV", csvName("3.0.0")).stream()
                .filter(r -> r.status() != null && !"Pending".equals(r.status())).findFirst().orElseThrow();
        assertThat(v3Leaves.truth()).as("v3 left Pending only once the v2 upgrade had converged: " + v3Leaves)
                .isEqualTo("converged@2.0.0");
        assertThat(audit.firstPhase(csvName("2.0.0"), "Succeeded").resourceVersion())
                .as("v2 succeeded before v3 left Pending").isLessThan(v3Leaves.resourceVersion());
        assertNoUpgradeableWithoutConvergence();
    }

    @Test
    @SuppressWarnings("unchecked")
    void anAdminOverrideLetsOlmProceedAndOurOperatorLeavesItUntouched() throws Exception {
        installed("1.0.0");
        simulator.behave("KubeVirt", Behaviour.DEGRADED);
        awaitUpgradeable("1.0.0", false);
        createCsv("2.0.0", "1.0.0");
        awaitPhase("2.0.0", "Pending/OperatorConditionNotUpgradeable");

        Map<String, Object> override = new LinkedHashMap<>(Map.of("type", "Upgradeable", "status", "True",
                "reason", "AdminOverride", "message", "upgrade despite the degraded KubeVirt",
                "lastTransitionTime", Instant.now().toString().replaceAll("\\.\\d+Z$", "Z")));
        String edited = admin.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(NS)
                .withName(csvName("1.0.0")).edit(oc -> {
                    ((Map<String, Object>) oc.getAdditionalProperties().get("spec")).put("overrides", List.of(override));
                    return oc;
                }).getMetadata().getUid();
        long overridden = audit.latestRevision();
        // our operator writes its condition again (KubeVirt changes), next to the admin's override
        simulator.behave("KubeVirt", Behaviour.PROGRESSING);
        awaitPhase("2.0.0", "Succeeded");

        OlmAudit.Revision leaves = audit.of("CSV", csvName("2.0.0")).stream()
                .filter(r -> r.status() != null && !"Pending".equals(r.status())).findFirst().orElseThrow();
        OlmAudit.Revision oursThen = audit.of("OperatorCondition", csvName("1.0.0")).stream()
                .filter(r -> r.resourceVersion() < leaves.resourceVersion()).reduce((a, b) -> b).orElseThrow();
        assertThat(oursThen.status()).as("OLM proceeded on the override while our condition said False: " + oursThen)
                .isEqualTo("False");
        // the object the admin edited: when OLM deletes v1's CSV it may create an empty OperatorCondition
        // of the same name for a moment (a new object, seen once in a clean run), which never had it
        List<OlmAudit.Revision> after = audit.of("OperatorCondition", csvName("1.0.0")).stream()
                .filter(r -> r.resourceVersion() > overridden && edited.equals(r.uid())).toList();
        assertThat(after).as("our operator wrote its condition after the override")
                .anyMatch(r -> "ComponentProgressing".equals(r.reason()));
        assertThat(after).as("every revision after the override still carries it, unchanged")
                .allMatch(r -> List.of(override).equals(r.overrides()));
    }

    @Test
    void aSilentComponentKeepsOlmWaitingForTheWholeSilentPeriod() throws Exception {
        installed("1.0.0");
        createCsv("2.0.0", "1.0.0");
        awaitPhase("2.0.0", "Succeeded");
        // the new KubeVirt operator has not reported anything yet; the others finish their upgrade
        simulator.behave("KubeVirt", Behaviour.SILENT).runVersionAll("2.0.0");
        createCsv("3.0.0", "2.0.0");
        awaitPhase("3.0.0", "Pending/OperatorConditionNotUpgradeable");
        await("OLM's reason names KubeVirt").atMost(INSTALL).until(() -> message("3.0.0").contains("KubeVirt"));
        long silentFrom = audit.latestRevision();
        observe(SILENT, () -> {
            assertThat(phase("3.0.0")).startsWith("Pending/OperatorConditionNotUpgradeable");
            assertThat(message("3.0.0")).contains("KubeVirt");
        });

        simulator.behave("KubeVirt", Behaviour.HEALTHY);
        awaitPhase("3.0.0", "Succeeded");
        assertNotPastPendingWhileHeld("3.0.0", "2.0.0", silentFrom);
        simulator.runVersionAll("3.0.0");
        awaitUpgradeable("3.0.0", true);
        assertNoUpgradeableWithoutConvergence();
    }

    /**
     * The release as shipped: each CSV carries hco-operator and the four component operators, run
     * here as the pods OLM's Deployments get (the simulated component operator of each image, at
     * the image's version). OLM replaces the component operators only through our gate: v2 waits
     * until v1's stack converged, and v3 waits while v2's component operators upgrade their CRs.
     */
    @Test
    void theReleaseShipsTheComponentOperatorsAndOlmReplacesThemOnlyThroughTheGate() throws Exception {
        componentOperatorPods = true;
        // v2's component operators roll out their operands for 60 s: OLM looks at v3 only once v2
        // is installed (our two replicas rolled over), and it must look while they still upgrade
        System.setProperty("hco.e2e.component-upgrade-seconds", "60");
        try {
            walkThreeReleases();
        } finally {
            System.clearProperty("hco.e2e.component-upgrade-seconds");
        }
    }

    /**
     * The bundle as shipped, installed by OLM with the real virt-operator and
     * cluster-network-addons-operator (built from their Go modules; KWOK plays their operands' node,
     * as in RealComponentsIT) and the simulated cdi-operator and ssp-operator: the CSV reaches
     * Succeeded, and once the HyperConverged exists the OperatorCondition OLM reads says True only
     * at revisions where every component CR had converged at the version the CSV gave it.
     */
    @Test
    @org.junit.jupiter.api.Tag(REAL_OPERATORS)
    void theBundleInstallsTheRealOperatorsAndOlmReadsTrueOnlyOnceTheyConverged() throws Exception {
        componentOperatorPods = true;
        E2eBinaries.RealComponents real = E2eBinaries.get().realComponents();
        realVersions = Map.of("virt-operator", real.virtOperatorVersion(), "cluster-network-addons-operator",
                real.cnaoVersion());
        List<io.kubevirt.hco.components.ComponentDescriptor> stack = List.of(ComponentCatalog.KUBEVIRT,
                ComponentCatalog.CDI, ComponentCatalog.NETWORK_ADDONS);
        try (RevisionAudit revisions = new RevisionAudit(admin, NS, stack, csvName("1.0.0"))) {
            createCsv("1.0.0", null);
            awaitPhase("1.0.0", "Succeeded");
            KwokCluster.createHyperConverged(admin, NS);
            await("the OperatorCondition says True").atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> {
                        Map<String, Object> u = cluster.upgradeable(csvName("1.0.0"));
                        return u != null && "true".equalsIgnoreCase((String) u.get("status"));
                    });
            Map<String, String> expected = Map.of("KubeVirt", real.virtOperatorVersion(), "NetworkAddonsConfig",
                    real.cnaoVersion(), "CDI", "1.0.0");
            System.out.printf("[%s] %d OperatorCondition revisions%n", scenario, revisions.operatorConditionRevisions());
            assertThat(revisions.operatorConditionFalseTrues(expected)).isEmpty();
            assertThat(revisions.falseTrues(Map.of("1.0.0", expected))).isEmpty();
            assertThat(phase("1.0.0")).startsWith("Succeeded");
        }
    }

    private void walkThreeReleases() throws Exception {
        ClusterSetup.serveOpenShiftTemplates(admin);
        createCsv("1.0.0", null);
        awaitPhase("1.0.0", "Succeeded");
        List<String> operators = List.of("hco-operator", "virt-operator", "cdi-operator",
                "cluster-network-addons-operator", "ssp-operator");
        assertThat(admin.apps().deployments().inNamespace(NS).list().getItems())
                .extracting(d -> d.getMetadata().getName()).containsExactlyInAnyOrderElementsOf(operators);
        // as many running pods as the CSV's Deployments ask for (hco-operator's two, virt-operator's two
        // as upstream ships it, one of each other operator)
        int replicas = admin.apps().deployments().inNamespace(NS).list().getItems().stream()
                .mapToInt(d -> d.getSpec().getReplicas()).sum();
        assertThat(replicas).isEqualTo(7);
        await("every operator pod running").atMost(INSTALL).until(() -> admin.pods().inNamespace(NS).list().getItems()
                .stream().filter(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase())).count() == replicas);
        cluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
        // v2 published while v1's stack is still coming up: OLM must wait for v1's gate
        createCsv("2.0.0", "1.0.0");
        awaitUpgradeable("1.0.0", true);
        // OLM installs v2: it replaces the component operators, which then upgrade their CRs; v3 is
        // published meanwhile
        await("OLM replaced the component operators").atMost(INSTALL).until(() -> audit.of("Deployment",
                "virt-operator").stream().anyMatch(r -> r.status() != null && r.status().endsWith(":2.0.0")));
        createCsv("3.0.0", "2.0.0");
        awaitPhase("2.0.0", "Succeeded");
        long v1Opened = audit.of("OperatorCondition", csvName("1.0.0")).stream()
                .filter(r -> "True".equals(r.status())).findFirst().orElseThrow().resourceVersion();
        for (String operator : operators.subList(1, operators.size())) {
            OlmAudit.Revision replaced = audit.of("Deployment", operator).stream()
                    .filter(r -> r.status() != null && r.status().endsWith(":2.0.0")).findFirst().orElseThrow();
            assertThat(replaced.resourceVersion()).as(operator + " replaced by OLM (" + replaced
                    + ") only after v1's gate opened at " + v1Opened).isGreaterThan(v1Opened);
        }

        awaitPhase("3.0.0", "Pending/OperatorConditionNotUpgradeable");
        // judged at each revision: OLM's first refusal may come while v2 is starting and its component
        // operators have not reported yet (the stack still at 1.0.0 then); it refuses again as v2's
        // gate message moves with the rollout
        await("v3 held at a revision where v2's component operators were upgrading").atMost(INSTALL)
                .pollInterval(Duration.ofMillis(500)).until(() -> audit.of("CSV", csvName("3.0.0")).stream()
                        .anyMatch(r -> "OperatorConditionNotUpgradeable".equals(r.reason()) && "converging".equals(r.truth())));
        // v3's component operators (started once OLM installs v3) take the usual 5 s
        System.setProperty("hco.e2e.component-upgrade-seconds", "5");
        awaitPhase("3.0.0", "Succeeded");
        OlmAudit.Revision v3Leaves = audit.of("CSV", csvName("3.0.0")).stream()
                .filter(r -> r.status() != null && !"Pending".equals(r.status())).findFirst().orElseThrow();
        assertThat(v3Leaves.truth()).as("v3 left Pending only once every component reported 2.0.0: " + v3Leaves)
                .isEqualTo("converged@2.0.0");
        awaitUpgradeable("3.0.0", true);
        assertNoUpgradeableWithoutConvergence();
    }

    // ---- helpers ----

    static final Duration SILENT = Duration.ofSeconds(Integer.getInteger("hco.e2e.silent-seconds", 30));

    static final Duration HOLD = Duration.ofSeconds(15);

    static final String NOTHING_INSTALLED = "nothing installed";

    /** Brings up {@code version} as OLM installs it, with a HyperConverged whose stack converged. */
    void installed(String version) throws Exception {
        createCsv(version, null);
        awaitPhase(version, "Succeeded");
        cluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
        simulator.watch();
        awaitUpgradeable(version, true);
    }

    /** {@code check} holds at every look during {@code period} (OLM is given the time to act wrongly). */
    void observe(Duration period, Runnable check) {
        Instant end = Instant.now().plus(period);
        await().atMost(period.plusSeconds(30)).pollInterval(Duration.ofMillis(250)).until(() -> {
            check.run();
            return Instant.now().isAfter(end);
        });
    }

    /** While our gate for {@code from} said False, OLM never moved {@code to} past Pending. */
    void assertNotPastPendingWhileHeld(String to, String from, long heldFrom) {
        OlmAudit.Revision leaves = audit.of("CSV", csvName(to)).stream()
                .filter(r -> r.status() != null && !"Pending".equals(r.status())).findFirst().orElseThrow();
        OlmAudit.Revision gateThen = audit.of("OperatorCondition", csvName(from)).stream()
                .filter(r -> r.resourceVersion() < leaves.resourceVersion() && r.status() != null)
                .reduce((a, b) -> b).orElseThrow();
        assertThat(gateThen.status()).as(csvName(to) + " left Pending (" + leaves + ") when " + csvName(from)
                + "'s gate said " + gateThen).isEqualTo("True");
        assertThat(leaves.resourceVersion()).isGreaterThan(heldFrom);
    }

    /** The new version's process held its gate (Initializing) before OLM counted its CSV Succeeded. */
    void assertHeldBeforeSucceeded(String version) {
        OlmAudit.Revision held = audit.of("OperatorCondition", csvName(version)).stream()
                .filter(r -> "False".equals(r.status()) && "Initializing".equals(r.reason())).findFirst().orElse(null);
        assertThat(held).as(csvName(version) + ": Upgradeable=False/Initializing written").isNotNull();
        assertThat(audit.firstPhase(csvName(version), "Succeeded").resourceVersion())
                .as(csvName(version) + " succeeded only after its gate was held").isGreaterThan(held.resourceVersion());
    }

    /**
     * Every Upgradeable=True OLM could read was true of the simulated stack when it was written (a
     * DELETED event repeats the last state of an object that is gone: nothing to read any more).
     */
    void assertNoUpgradeableWithoutConvergence() {
        Map<String, String> previous = new java.util.HashMap<>();
        for (OlmAudit.Revision r : audit.revisions()) {
            if (!"OperatorCondition".equals(r.kind())) {
                continue;
            }
            // judged when the value is written: later events that repeat it (OLM's status copies,
            // the garbage collector deleting the OperatorCondition of a replaced CSV) are no new claim
            String value = r.status() + "/" + r.reason() + "/" + r.message();
            boolean written = !value.equals(previous.put(r.name(), value));
            if (written && "True".equals(r.status()) && !"DELETED".equals(r.action())) {
                String version = r.name().substring("hco-operator.v".length());
                // "nothing installed" is a claim of its own: no HyperConverged and no component CR (the
                // component operators may run: with no CR, replacing them interrupts nothing)
                String claim = "NoStackInstalled".equals(r.reason()) ? NOTHING_INSTALLED : "converged@" + version;
                assertThat(r.truth()).as("Upgradeable=True (" + r.reason() + ") while the stack was not so: " + r)
                        .isEqualTo(claim);
            }
        }
    }

    @SuppressWarnings("unchecked")
    String message(String version) {
        GenericKubernetesResource csv = admin.genericKubernetesResources(OlmAudit.CSV).inNamespace(NS)
                .withName(csvName(version)).get();
        return csv == null ? null : (String) ((Map<String, Object>) csv.getAdditionalProperties().get("status")).get("message");
    }

    /** The ground truth at {@code resourceVersion}: what the component CRs said then, judged as the components run. */
    private String truthAt(StackHistory stack, long resourceVersion) {
        if (stack.emptyAt(resourceVersion)) {
            return NOTHING_INSTALLED;
        }
        StackHistory.Judge judge = componentOperatorPods ? StackTruth::healthy
                : (d, cr, version) -> simulator.convergedAsOf(cr, version);
        for (String v : List.of("1.0.0", "2.0.0", "3.0.0")) {
            if (stack.convergedAt(resourceVersion, v, judge)) {
                return "converged@" + v;
            }
        }
        return "converging";
    }


    static String csvName(String version) {
        return "hco-operator.v" + version;
    }

    /** The bundle's CSV as OLM would get it from a catalog, for {@code version}. */
    @SuppressWarnings("unchecked")
    void createCsv(String version, String replaces) throws Exception {
        GenericKubernetesResource csv = (GenericKubernetesResource) bundleManifest(
                "hco-operator.clusterserviceversion.yaml").get(0);
        csv.getMetadata().setName(csvName(version));
        csv.getMetadata().setNamespace(NS);
        Map<String, Object> spec = (Map<String, Object>) csv.getAdditionalProperties().get("spec");
        spec.put("version", version);
        if (replaces == null) {
            spec.remove("replaces");
        } else {
            spec.put("replaces", csvName(replaces));
        }
        List<Map<String, Object>> deployments = (List<Map<String, Object>>) ((Map<String, Object>) ((Map<String, Object>) spec
                .get("install")).get("spec")).get("deployments");
        Map<String, Object> container = container(deployments.get(0));
        Map<String, String> env = new LinkedHashMap<>(Map.of("OPERATOR_VERSION", version));
        ComponentCatalog.ALL.forEach(d -> env.put(d.versionEnv(), version));
        // the real operators report the version their own variable says: the module built here
        if (realVersions.containsKey("virt-operator")) {
            env.put(ComponentCatalog.KUBEVIRT.versionEnv(), realVersions.get("virt-operator"));
        }
        if (realVersions.containsKey("cluster-network-addons-operator")) {
            env.put(ComponentCatalog.NETWORK_ADDONS.versionEnv(), realVersions.get("cluster-network-addons-operator"));
        }
        // leader election paced for a test (the bundle's 137/107/26 s would make each upgrade wait)
        env.putAll(Map.of("HCO_LEASE_DURATION", "15s", "HCO_LEASE_RENEW_DEADLINE", "10s", "HCO_LEASE_RETRY_PERIOD",
                "2s"));
        if (!componentOperatorPods) {
            // the in-process simulator plays all four, on a cluster without OpenShift's templates API
            env.put("HCO_COMPONENT_SSP", "enabled");
        }
        setEnv(container, env);
        if (componentOperatorPods) {
            // this release's component operators: the same images at this version, as a release
            // file for it would name them
            for (Map<String, Object> d : deployments.subList(1, deployments.size())) {
                Map<String, Object> c = container(d);
                String image = ((String) c.get("image")).split("@")[0];
                String repository = io.kubevirt.hco.simulator.SimulatedComponent.repositoryName(image);
                String own = realVersions.getOrDefault(repository, version);
                c.put("image", image + ":" + own);
                String versionEnv = io.kubevirt.hco.simulator.SimulatedComponent.forImage(image).orElseThrow().versionEnv();
                setEnv(c, Map.of(versionEnv, own));
                if ("virt-operator".equals(repository) && realVersions.containsKey(repository)) {
                    // one replica: two virt-operator processes on one host would share its ports
                    ((Map<String, Object>) d.get("spec")).put("replicas", 1);
                }
            }
        } else {
            deployments.subList(1, deployments.size()).clear();
            // ssp-operator's webhooks go with its Deployment: OLM refuses a webhook definition whose
            // deployment the CSV lacks (NeedsReinstall, "calculated deployment install is bad", forever)
            spec.remove("webhookdefinitions");
        }
        installPlanSteps(version, (Map<String, Object>) ((Map<String, Object>) spec.get("install")).get("spec"));
        admin.genericKubernetesResources(OlmAudit.CSV).inNamespace(NS).resource(csv).create();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> container(Map<String, Object> deployment) {
        Map<String, Object> podSpec = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) deployment
                .get("spec")).get("template")).get("spec");
        return ((List<Map<String, Object>>) podSpec.get("containers")).get(0);
    }

    @SuppressWarnings("unchecked")
    private static void setEnv(Map<String, Object> container, Map<String, String> values) {
        for (Map<String, Object> var : (List<Map<String, Object>>) container.get("env")) {
            if (values.containsKey(var.get("name"))) {
                var.put("value", values.get(var.get("name")));
            }
        }
    }

    /**
     * What OLM's catalog operator (not in the loop: there is no catalog) applies before a CSV from an
     * InstallPlan: the ServiceAccount and the CSV's permissions and clusterPermissions as RBAC. OLM's
     * olm-operator then checks these satisfy the CSV before it installs anything.
     */
    @SuppressWarnings("unchecked")
    void installPlanSteps(String version, Map<String, Object> strategy) {
        for (String scope : List.of("permissions", "clusterPermissions")) {
            for (Map<String, Object> grant : (List<Map<String, Object>>) strategy.getOrDefault(scope, List.of())) {
                String sa = (String) grant.get("serviceAccountName");
                String name = csvName(version) + "-" + sa + "-" + scope.toLowerCase();
                admin.serviceAccounts().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                        .withNewMetadata().withName(sa).endMetadata().build()).createOr(existing -> existing.update());
                List<io.fabric8.kubernetes.api.model.rbac.PolicyRule> rules = ((List<Object>) grant.get("rules"))
                        .stream().map(r -> Serialization.unmarshal(Serialization.asJson(r),
                                io.fabric8.kubernetes.api.model.rbac.PolicyRule.class))
                        .toList();
                var subject = new io.fabric8.kubernetes.api.model.rbac.SubjectBuilder().withKind("ServiceAccount")
                        .withName(sa).withNamespace(NS).build();
                if (scope.equals("permissions")) {
                    admin.rbac().roles().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.rbac.RoleBuilder()
                            .withNewMetadata().withName(name).endMetadata().withRules(rules).build()).create();
                    admin.rbac().roleBindings().inNamespace(NS).resource(
                            new io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder().withNewMetadata().withName(name)
                                    .endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", name)
                                    .withSubjects(subject).build()).create();
                } else {
                    admin.rbac().clusterRoles().resource(new io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder()
                            .withNewMetadata().withName(name).endMetadata().withRules(rules).build()).create();
                    admin.rbac().clusterRoleBindings().resource(
                            new io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder().withNewMetadata()
                                    .withName(name).endMetadata()
                                    .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", name)
                                    .withSubjects(subject).build()).create();
                }
            }
        }
    }

    /**
     * A manifest of the bundle image the build made (its root filesystem, as a catalog would unpack
     * it): the CSV names the operator image by digest, and the pod runner runs that image.
     */
    List<HasMetadata> bundleManifest(String file) throws Exception {
        Path manifests = ContainerImage.built("bundle").orElseThrow(() -> new IllegalStateException(
                "no bundle image in target/images: the package phase builds it")).rootfs().resolve("manifests");
        return admin.load(new ByteArrayInputStream(Files.readAllBytes(manifests.resolve(file)))).items();
    }

    @SuppressWarnings("unchecked")
    String phase(String version) {
        GenericKubernetesResource csv = admin.genericKubernetesResources(OlmAudit.CSV).inNamespace(NS)
                .withName(csvName(version)).get();
        if (csv == null || !(csv.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) {
            return csv == null ? "absent" : "none";
        }
        return status.get("phase") + "/" + status.get("reason");
    }

    /**
     * Waits until OLM has put the CSV in {@code phase} ("Phase" or "Phase/Reason") at some revision:
     * read from the audit, as a phase can be brief (Succeeded turns Replacing at once when a newer
     * CSV waits).
     */
    void awaitPhase(String version, String phase) {
        try {
            await(csvName(version) + " " + phase).atMost(INSTALL).pollInterval(Duration.ofMillis(250))
                    .until(() -> audit.of("CSV", csvName(version)).stream()
                            .anyMatch(r -> (r.status() + "/" + r.reason() + "/").startsWith(phase + "/")));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            GenericKubernetesResource csv = admin.genericKubernetesResources(OlmAudit.CSV).inNamespace(NS)
                    .withName(csvName(version)).get();
            throw new AssertionError(csvName(version) + " not " + phase + "; its status: "
                    + (csv == null ? "absent" : Serialization.asYaml(csv.getAdditionalProperties().get("status"))), e);
        }
    }

    void awaitUpgradeable(String version, boolean expected) {
        await(csvName(version) + " Upgradeable=" + expected).atMost(INSTALL).pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    Map<String, Object> u = cluster.upgradeable(csvName(version));
                    return u != null && String.valueOf(expected).equalsIgnoreCase((String) u.get("status"));
                });
    }

    private boolean grantsOperatorCondition(Role role) {
        return role.getRules().stream().anyMatch(r -> r.getResources().contains("operatorconditions")
                && r.getResourceNames().contains(csvName("1.0.0")) && r.getVerbs().containsAll(List.of("get", "patch")));
    }

    static GenericKubernetesResource object(String apiVersion, String kind, String name, Map<String, Object> spec) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(apiVersion);
        r.setKind(kind);
        r.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).withNamespace(NS).build());
        r.getAdditionalProperties().put("spec", new LinkedHashMap<>(spec));
        return r;
    }
}
