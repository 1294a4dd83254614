package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentSimulator;

/**
 * Least privilege, proven on a real API server. The operator runs with exactly the rules the chart
 * and the bundle grant (the generated ClusterRole, which HelmChartIT and BundleIT keep equal to
 * theirs) through an exercise that uses every feature: leader election, the OperatorCondition,
 * install, metrics behind TokenReview + SubjectAccessReview, a spec change, deletion, a rollout
 * in which the old revision's leader hands the Lease to the new revision's pod, a graceful stop that
 * hands the Lease back. Then each rule, and each verb of each rule, is removed in turn:
 * every removal must make the exercise fail or be refused by the API server (a 403 in its audit
 * log for the operator's ServiceAccount). So must narrowing each cluster-wide rule to the
 * operator's namespace. No wildcards anywhere.
 */
class RbacLeastPrivilegeIT {

    private static final Duration STEP = Duration.ofSeconds(45);
    private static RealApiServer api;
    private static KubernetesClient admin;
    /** The ClusterRole's rules, then the Role's (the operator's own namespace). */
    private static List<Scoped> granted;
    private static int runs;

    @BeforeAll
    static void start() throws Exception {
        api = new RealApiServer().start();
        admin = api.admin();
        ClusterSetup.installCrds(admin);
        var generated = admin.load(Files.newInputStream(ClusterSetup.GENERATED.resolve("kubernetes.yml"))).items();
        granted = new ArrayList<>();
        generated.stream().filter(ClusterRole.class::isInstance).map(ClusterRole.class::cast).findFirst().orElseThrow()
                .getRules().forEach(r -> granted.add(new Scoped(r, false)));
        generated.stream().filter(Role.class::isInstance).map(Role.class::cast).findFirst().orElseThrow()
                .getRules().forEach(r -> granted.add(new Scoped(r, true)));
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    @Test
    void theGrantedRulesHaveNoWildcardAndAreEnoughForEveryFeature() throws Exception {
        for (PolicyRule r : granted.stream().map(Scoped::rule).toList()) {
            assertThat(r.getVerbs()).doesNotContain("*");
            assertThat(r.getResources()).doesNotContain("*");
            assertThat(r.getApiGroups()).doesNotContain("*");
        }
        Outcome outcome = exercise(granted);
        assertThat(outcome.denied()).as("requests refused with the granted rules").isEmpty();
        assertThat(outcome.failedStep()).as("the exercise with the granted rules").isNull();
    }

    @Test
    void removingAnyRuleOrAnyVerbBreaksTheExercise() throws Exception {
        Map<String, Outcome> results = new LinkedHashMap<>();
        for (int i = 0; i < granted.size(); i++) {
            PolicyRule rule = granted.get(i).rule();
            boolean namespaced = granted.get(i).namespaced();
            if (rule.getVerbs().size() == 1) {
                List<Scoped> without = new ArrayList<>(granted);
                without.remove(i);
                results.put("rule " + describe(rule) + (namespaced ? " (namespace)" : ""), exercise(without));
            } else {
                // removing the whole rule removes each of these verbs at once: implied by every verb being needed
                for (String verb : rule.getVerbs()) {
                    List<Scoped> fewer = new ArrayList<>(granted);
                    fewer.set(i, new Scoped(new PolicyRuleBuilder(rule).withVerbs(rule.getVerbs().stream()
                            .filter(v -> !v.equals(verb)).toList()).build(), namespaced));
                    results.put("verb " + verb + " on " + rule.getResources(), exercise(fewer));
                }
            }
        }
        // every cluster-wide rule is needed cluster-wide: granted in the namespace only, it breaks too
        for (int i = 0; i < granted.size(); i++) {
            if (!granted.get(i).namespaced()) {
                List<Scoped> narrowed = new ArrayList<>(granted);
                narrowed.set(i, new Scoped(granted.get(i).rule(), true));
                results.put("scope of " + describe(granted.get(i).rule()) + " narrowed to the namespace",
                        exercise(narrowed));
            }
        }
        System.out.println("\n| permission removed | what broke |\n|---|---|");
        results.forEach((what, outcome) -> System.out.printf("| %s | %s |%n", what, outcome.describe()));
        List<String> superfluous = results.entrySet().stream().filter(e -> e.getValue().passed())
                .map(Map.Entry::getKey).toList();
        assertThat(superfluous).as("permissions whose removal broke nothing").isEmpty();
    }

    /** A granted rule and where: cluster-wide (ClusterRole) or in the operator's namespace (Role). */
    record Scoped(PolicyRule rule, boolean namespaced) {
    }

    record Outcome(String failedStep, List<String> denied) {
        boolean passed() {
            return failedStep == null && denied.isEmpty();
        }

        String describe() {
            return passed() ? "nothing (superfluous)"
                    : (denied.isEmpty() ? "" : "403 " + String.join(", ", denied.stream().distinct().limit(3).toList()))
                            + (failedStep == null ? "" : (denied.isEmpty() ? "" : "; ") + "failed: " + failedStep);
        }
    }

    private static String describe(PolicyRule r) {
        return r.getApiGroups() + " " + r.getResources() + " " + r.getVerbs();
    }

    /** Every feature once, in a fresh namespace, with {@code rules} bound to the operator's ServiceAccount. */
    private static Outcome exercise(List<Scoped> rules) throws Exception {
        String ns = "rbac-" + (++runs);
        String user = "system:serviceaccount:" + ns + ":hco-operator";
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
        String token = ClusterSetup.grant(admin, ns, "hco-operator", ns,
                rules.stream().filter(r -> !r.namespaced()).map(Scoped::rule).toList(),
                rules.stream().filter(Scoped::namespaced).map(Scoped::rule).toList());
        Cluster cluster = new Cluster(admin, ns);
        String condition = OperatorProcess.operatorConditionName("1.0.0");
        cluster.createOperatorCondition(condition);
        // the operator as revision 1 of a Deployment would run it (RolloutHandover reads both revisions)
        rollout(ns, 1);
        // the chart or OLM creates the metrics scraper's ServiceAccount; the operator keeps its token
        admin.serviceAccounts().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                .withNewMetadata().withName("hco-operator-metrics-scraper").endMetadata().build()).create();
        Map<String, String> env = new HashMap<>();
        env.put("HCO_METRICS_AUTH", "true");
        env.put("HCO_DEPLOYMENT_NAME", "hco-operator");
        env.put("HCO_POD_TEMPLATE_HASH", "rev1");
        env.put("HCO_HANDOVER_CHECK_INTERVAL", "1s");
        Path kubeconfig = api.kubeconfig("hco-operator", token, ns);
        OperatorProcess successor = null;
        try (OperatorProcess op = OperatorProcess.start("op-" + ns, kubeconfig, ns, "1.0.0", env, api.dir());
                ComponentSimulator components = new ComponentSimulator(admin, ns, "1.0.0")) {
            Step step = new Step(user, op);
            if (!step.until("ready (gate held, lease taken)", () -> op.readiness() == 200)) {
                return step.outcome();
            }
            if (!step.until("nothing installed: Upgradeable=True (NoStackInstalled)", () -> {
                Map<String, Object> u = cluster.upgradeable(condition);
                return u != null && "True".equals(u.get("status")) && "NoStackInstalled".equals(u.get("reason"));
            })) {
                return step.outcome();
            }
            cluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
            components.watch();
            if (!step.until("install converged, Upgradeable=True", () -> {
                Map<String, Object> u = cluster.upgradeable(condition);
                return u != null && "True".equals(u.get("status"));
            })) {
                return step.outcome();
            }
            if (!step.until("the metrics scraper's token Secret kept", () -> admin.secrets().inNamespace(ns)
                    .withName("hco-operator-metrics-scraper-token").get() != null)) {
                return step.outcome();
            }
            String reader = readerToken(ns);
            if (!step.until("metrics with an allowed token", () -> op.get("/q/metrics", reader).startsWith("200"))) {
                return step.outcome();
            }
            // a change that reaches every component's spec: certificates (KubeVirt, CDI, network add-ons), multi-arch (CDI, SSP)
            E2eScenario.editHyperConverged(admin, cluster, hco -> {
                hco.getSpec().certConfig.ca.duration = "72h0m0s";
                hco.getSpec().featureGates.enableMultiArchBootImageImport = true;
            });
            if (!step.until("spec change applied to every component", () -> ComponentCatalog.ALL.stream()
                    .allMatch(d -> cluster.component(d).getMetadata().getGeneration() >= 2))) {
                return step.outcome();
            }
            if (!step.until("transition events recorded", () -> !admin.v1().events().inNamespace(ns).list().getItems()
                    .isEmpty())) {
                return step.outcome();
            }
            admin.resource(cluster.hyperConverged(HyperConverged.SINGLETON_NAME)).delete();
            if (!step.until("deleted with its component CRs", () -> cluster.hyperConverged(HyperConverged.SINGLETON_NAME) == null
                    && ComponentCatalog.ALL.stream().allMatch(d -> cluster.component(d) == null))) {
                return step.outcome();
            }
            // a rollout: revision 2's pod starts as a standby, the leader of revision 1 hands it the Lease
            rollout(ns, 2);
            env.put("HCO_POD_TEMPLATE_HASH", "rev2");
            OperatorProcess next = OperatorProcess.start("op2-" + ns, kubeconfig, ns, "1.0.0", env, api.dir());
            successor = next;
            if (!step.untilExiting("the leader of the old revision handed the lease to the new revision's pod", () -> {
                var lease = admin.leases().inNamespace(ns).withName("hco-operator-lock").get();
                return !op.alive() && lease != null && next.name().equals(lease.getSpec().getHolderIdentity());
            })) {
                return step.outcome();
            }
            step.follow(next);
            String handedOver = admin.leases().inNamespace(ns).withName("hco-operator-lock").get().getMetadata()
                    .getResourceVersion();
            if (!step.until("the new revision's pod leads (renews the lease it was handed)", () -> {
                var lease = admin.leases().inNamespace(ns).withName("hco-operator-lock").get();
                return !handedOver.equals(lease.getMetadata().getResourceVersion())
                        && next.name().equals(lease.getSpec().getHolderIdentity());
            })) {
                return step.outcome();
            }
            next.close();
            if (!step.untilExiting("lease handed back on a graceful stop", () -> admin.leases().inNamespace(ns)
                    .withName("hco-operator-lock").get() == null)) {
                return step.outcome();
            }
            return step.outcome();
        } finally {
            if (successor != null) {
                successor.close();
            }
            admin.rbac().clusterRoleBindings().withName(ns).delete();
            admin.rbac().clusterRoles().withName(ns).delete();
            cleanUp(cluster, ns);
        }
    }

    /**
     * What a run may leave behind once its operator is gone: the HyperConverged (its finalizer
     * removed by hand) and the component CRs — NetworkAddonsConfig is cluster-scoped, so a leftover
     * would show up in the next run's namespace as a component without a HyperConverged.
     */
    private static void cleanUp(Cluster cluster, String ns) {
        HyperConverged hco = cluster.hyperConverged(HyperConverged.SINGLETON_NAME);
        if (hco != null) {
            hco.getMetadata().setFinalizers(List.of());
            admin.resource(hco).update();
            admin.resource(hco).delete();
        }
        for (var d : ComponentCatalog.ALL) {
            io.kubevirt.hco.components.ComponentResources.managed(admin, d, ns).delete();
        }
        for (var d : ComponentCatalog.ALL) {
            java.util.concurrent.Callable<Boolean> gone = () -> cluster.component(d) == null;
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(gone);
        }
    }

    /**
     * What the Deployment controller would have left for revision {@code revision}: the Deployment
     * at that revision and its ReplicaSet {@code hco-operator-rev<revision>} (no pods: the test runs
     * the processes).
     */
    private static void rollout(String ns, int revision) {
        var template = new io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder().withNewMetadata()
                .addToLabels("app", "hco-operator").endMetadata().withNewSpec().addNewContainer().withName("hco-operator")
                .withImage("hco-operator:" + revision).endContainer().endSpec().build();
        var revisionAnnotation = Map.of("deployment.kubernetes.io/revision", Integer.toString(revision));
        admin.apps().replicaSets().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder()
                .withNewMetadata().withName("hco-operator-rev" + revision).withAnnotations(revisionAnnotation)
                .endMetadata().withNewSpec().withReplicas(0).withNewSelector().addToMatchLabels("app", "hco-operator")
                .endSelector().withTemplate(template).endSpec().build()).create();
        admin.apps().deployments().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder()
                .withNewMetadata().withName("hco-operator").withAnnotations(revisionAnnotation).endMetadata()
                .withNewSpec().withReplicas(0).withNewSelector().addToMatchLabels("app", "hco-operator").endSelector()
                .withTemplate(template).endSpec().build()).createOr(existing -> existing.update());
    }

    private static String readerToken(String ns) {
        return ClusterSetup.grant(admin, ns, "prometheus", ns + "-metrics", ClusterSetup.METRICS_READER);
    }

    /** Waits for one step, giving up early once the API server has refused the operator something. */
    private static final class Step {
        private final String user;
        private OperatorProcess op;
        private final List<String> denied = new ArrayList<>();
        private long offset;
        private String failed;

        Step(String user, OperatorProcess op) throws java.io.IOException {
            this.user = user;
            this.op = op;
            this.offset = Files.size(api.auditLog());
        }

        /** From now on the exercise follows this process (the previous one has handed over). */
        void follow(OperatorProcess successor) {
            op = successor;
        }

        boolean until(String what, Callable<Boolean> done) throws Exception {
            return until(what, done, false);
        }

        /** A step in which the followed process stops. */
        boolean untilExiting(String what, Callable<Boolean> done) throws Exception {
            return until(what, done, true);
        }

        private boolean until(String what, Callable<Boolean> done, boolean exitExpected) throws Exception {
            Instant end = Instant.now().plus(STEP);
            while (Instant.now().isBefore(end)) {
                if (!denied().isEmpty()) {
                    failed = what;
                    return false;
                }
                if (!op.alive() && !exitExpected) {
                    // e.g. the operator SDK checks its Lease permissions (SelfSubjectAccessReview) and refuses to start
                    failed = what + " (the operator exited: " + lastError(op.log()) + ")";
                    return false;
                }
                try {
                    if (Boolean.TRUE.equals(done.call())) {
                        return true;
                    }
                } catch (RuntimeException e) {
                    // not there yet
                }
                Thread.sleep(200);
            }
            failed = what + " (not within " + STEP.toSeconds() + " s)";
            return false;
        }

        private static String lastError(String log) {
            int at = log.lastIndexOf("missing required verbs");
            if (at < 0) {
                at = log.lastIndexOf("\"level\":\"ERROR\"");
            }
            if (at < 0) {
                return "no error logged";
            }
            int end = log.indexOf(']', at);
            return log.substring(at, end < 0 ? Math.min(log.length(), at + 120) : end + 1).replace('"', '\'');
        }

        /** Refusals logged since the last look; the audit log is read from where the last look stopped. */
        List<String> denied() throws Exception {
            try (var file = new java.io.RandomAccessFile(api.auditLog().toFile(), "r")) {
                if (file.length() > offset) {
                    file.seek(offset);
                    byte[] fresh = new byte[(int) (file.length() - offset)];
                    file.readFully(fresh);
                    String text = new String(fresh, java.nio.charset.StandardCharsets.UTF_8);
                    int complete = text.lastIndexOf('\n') + 1;
                    offset += text.substring(0, complete).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                    for (AuditLog.Write w : AuditLog.parse(text.substring(0, complete))) {
                        if (user.equals(w.user()) && w.code() == 403) {
                            denied.add(w.what());
                        }
                    }
                }
            }
            return denied;
        }

        Outcome outcome() throws Exception {
            return new Outcome(failed, denied());
        }
    }
}
