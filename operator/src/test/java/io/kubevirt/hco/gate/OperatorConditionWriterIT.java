package io.kubevirt.hco.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.e2e.AuditLog;
import io.kubevirt.hco.e2e.BenchSupport;
import io.kubevirt.hco.e2e.RealApiServer;
import io.kubevirt.hco.simulator.Cluster;

/**
 * The OperatorCondition writer on a real API server, with the operator's own RBAC: what it sends
 * (from the audit log) and what it leaves of other writers' edits.
 */
class OperatorConditionWriterIT {

    static final String NS = "writer-it";
    static final String ACCOUNT = "hco-operator";
    static RealApiServer api;
    static KubernetesClient admin;
    static KubernetesClient operator;
    static int run;

    OperatorConditionWriter writer;
    String name;

    @BeforeAll
    static void apiServer() throws Exception {
        api = new RealApiServer().start();
        admin = api.admin();
        BenchSupport.installCrds(admin);
        String token = BenchSupport.installOperator(admin, NS);
        operator = new KubernetesClientBuilder().withConfig(api.config(token)).build();
    }

    @AfterAll
    static void stop() {
        operator.close();
        api.close();
    }

    @BeforeEach
    void freshConditionAndWriter() {
        name = "hco-operator.v" + (++run) + ".0.0";
        new Cluster(admin, NS).createOperatorCondition(name);
        writer = new OperatorConditionWriter();
        writer.client = operator;
        writer.settings = settings(name);
    }

    @Test
    void aChangedDecisionIsOneTestedPatchEvenAfterOlmCopiedTheConditionsToTheStatus() throws Exception {
        Instant start = Instant.now();
        writer.write(false, "Initializing", "starting");
        assertThat(verbs(start)).containsExactly("get", "patch");

        olmCopiesSpecToStatus();
        Instant change = Instant.now();
        writer.write(true, "AsExpected", "all converged");
        assertThat(verbs(change)).as("no read before the write, no conflict from OLM's status write")
                .containsExactly("patch");
        assertThat(upgradeable()).containsEntry("status", "True").containsEntry("reason", "AsExpected");
    }

    @Test
    void anUnchangedDecisionReadsAndCorrectsAStrayEdit() throws Exception {
        writer.write(false, "ComponentDegraded", "KubeVirt: degraded");
        Instant same = Instant.now();
        writer.write(false, "ComponentDegraded", "KubeVirt: degraded");
        assertThat(verbs(same)).as("an unchanged decision writes nothing").containsExactly("get");

        editSpec(spec -> upgradeableIn(spec).put("status", "True"));
        Instant afterEdit = Instant.now();
        writer.write(false, "ComponentDegraded", "KubeVirt: degraded");
        assertThat(verbs(afterEdit)).containsExactly("get", "patch");
        assertThat(upgradeable()).containsEntry("status", "False");
    }

    /**
     * With an informer's copy to read, an unchanged decision sends nothing; a stray edit, once the
     * copy has it (its watch event is what wakes the reconciler), is read and corrected.
     */
    @Test
    void anUnchangedDecisionThatTheInformersCopySaysSendsNothing() throws Exception {
        var informer = operator.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(NS)
                .withName(name).inform();
        try {
            writer.readCachedCopyFrom(() -> informer.getStore().getByKey(NS + "/" + name));
            writer.write(false, "ComponentDegraded", "KubeVirt: degraded");
            awaitCopySays(informer, "False");
            Instant same = Instant.now();
            writer.write(false, "ComponentDegraded", "KubeVirt: degraded");

            editSpec(spec -> upgradeableIn(spec).put("status", "True"));
            awaitCopySays(informer, "True");
            Instant afterEdit = Instant.now();
            writer.write(false, "ComponentDegraded", "KubeVirt: degraded");
            assertThat(readsAndWrites(afterEdit)).containsExactly("get", "patch");
            assertThat(readsAndWrites(same)).as("the unchanged decision sent nothing; the correction two requests")
                    .containsExactly("get", "patch");
            assertThat(upgradeable()).containsEntry("status", "False");
        } finally {
            informer.close();
        }
    }

    /**
     * The pass that follows a closing published from a component's event finds the informer's copy
     * still without that write (its watch event is on its way): the copy is older than what the
     * writer last wrote, so nothing is sent. A copy at or past that revision that says otherwise was
     * edited: read and corrected.
     */
    @Test
    void aCopyThatLagsOurOwnWriteCostsNoRead() throws Exception {
        var ocs = admin.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(NS);
        GenericKubernetesResource beforeOurWrite = ocs.withName(name).get();
        java.util.concurrent.atomic.AtomicReference<GenericKubernetesResource> copy =
                new java.util.concurrent.atomic.AtomicReference<>(beforeOurWrite);
        writer.readCachedCopyFrom(copy::get);
        writer.write(false, "ComponentDegraded", "KubeVirt: degraded");

        Instant lagging = Instant.now();
        writer.write(false, "ComponentDegraded", "KubeVirt: degraded");
        assertThat(readsAndWrites(lagging)).as("the copy predates our write: nothing sent").isEmpty();

        editSpec(spec -> upgradeableIn(spec).put("status", "True"));
        copy.set(ocs.withName(name).get());
        Instant edited = Instant.now();
        writer.write(false, "ComponentDegraded", "KubeVirt: degraded");
        assertThat(readsAndWrites(edited)).containsExactly("get", "patch");
        assertThat(upgradeable()).containsEntry("status", "False");
    }

    private void awaitCopySays(io.fabric8.kubernetes.client.informers.SharedIndexInformer<GenericKubernetesResource> informer,
            String status) throws InterruptedException {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            GenericKubernetesResource copy = informer.getStore().getByKey(NS + "/" + name);
            Map<String, Object> upgradeable = copy == null ? null : Cluster.upgradeableOf(copy);
            if (upgradeable != null && status.equals(upgradeable.get("status"))) {
                return;
            }
            Thread.sleep(5); // polling the informer's store; the deadline is what fails
        }
        throw new AssertionError("the informer's copy never said Upgradeable=" + status);
    }

    private List<String> readsAndWrites(Instant after) throws Exception {
        return verbs(after).stream().filter(v -> v.equals("get") || v.equals("patch") || v.equals("update")).toList();
    }

    @Test
    @SuppressWarnings("unchecked")
    void anotherWritersConditionsAndOverridesSurviveAChangeThatRacedThem() throws Exception {
        writer.write(false, "Stabilizing", "holding");
        Map<String, Object> override = condition("Upgradeable", "True", "AdminOverride", "upgrade anyway");
        Map<String, Object> theirs = condition("Backup", "True", "Done", "backed up");
        editSpec(spec -> {
            spec.put("overrides", List.of(override));
            ((List<Object>) spec.get("conditions")).add(theirs);
        });

        Instant change = Instant.now();
        writer.write(true, "AsExpected", "all converged");
        List<String> verbs = verbs(change);
        assertThat(verbs).as("the tested patch fails (422), the writer re-reads and patches again")
                .containsExactly("patch", "get", "patch");
        assertThat(codes(change)).containsExactly(422, 200, 200);
        Map<String, Object> spec = spec();
        assertThat(spec.get("overrides")).isEqualTo(List.of(override));
        assertThat((List<Object>) spec.get("conditions")).contains(theirs).hasSize(2);
        assertThat(upgradeable()).containsEntry("status", "True").containsEntry("reason", "AsExpected");
    }

    /**
     * OLM's CRD limits a condition message to 32 KiB: a component's huge message, passed on
     * verbatim, used to be refused (422) on every attempt, and OLM kept reading the earlier True.
     */
    @Test
    void aHugeComponentMessageIsCutSoTheClosingWriteLands() throws Exception {
        writer.write(true, "AsExpected", "all converged");
        writer.write(false, "ComponentDegraded", "KubeVirt: Degraded=True (" + "x".repeat(40_000) + ")");
        assertThat(upgradeable()).containsEntry("status", "False").containsEntry("reason", "ComponentDegraded");
        assertThat((String) upgradeable().get("message")).hasSize(io.kubevirt.hco.core.Messages.MAX_LENGTH)
                .startsWith("KubeVirt: Degraded=True (xxx").endsWith("…");
    }

    /**
     * A closing write the API server refuses for its message (here an admission policy that takes
     * short messages only, for this test's OperatorCondition alone: policies outlive their deletion
     * for a moment) still lands, with the writer's short fixed message: OLM must never keep
     * reading the earlier True because a False could not be written.
     */
    @Test
    void aRefusedClosingWriteLandsWithAShortMessage() throws Exception {
        var policy = io.kubevirt.hco.e2e.ClusterSetup.create(admin, """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: short-condition-messages}
                spec:
                  failurePolicy: Fail
                  matchConstraints:
                    resourceRules:
                    - apiGroups: [operators.coreos.com]
                      apiVersions: [v2]
                      operations: [CREATE, UPDATE]
                      resources: [operatorconditions]
                      resourceNames: [%s]
                  validations:
                  - expression: >
                      !has(object.spec) || !has(object.spec.conditions)
                      || object.spec.conditions.all(c, !has(c.message) || size(c.message) <= 120)
                    message: condition messages are limited to 120 characters here
                """.formatted(name));
        var binding = io.kubevirt.hco.e2e.ClusterSetup.create(admin, """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: short-condition-messages}
                spec: {policyName: short-condition-messages, validationActions: [Deny]}
                """);
        try {
            writer.write(true, "AsExpected", "all converged");
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(this::refusesLongMessages);
            writer.write(false, "ComponentDegraded", "KubeVirt: Degraded=True (" + "y".repeat(300) + ")");
            assertThat(upgradeable()).containsEntry("status", "False").containsEntry("reason", "ComponentDegraded")
                    .containsEntry("message", OperatorConditionWriter.FALLBACK_MESSAGE);
        } finally {
            admin.resource(binding).delete();
            admin.resource(policy).delete();
        }
    }

    /** The policy is in force (policies take a moment to load): a long message is refused. */
    private boolean refusesLongMessages() {
        try {
            editSpec(spec -> upgradeableIn(spec).put("message", "z".repeat(200)));
            editSpec(spec -> upgradeableIn(spec).put("message", "all converged"));
            return false;
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            return true;
        }
    }

    @Test
    void anObjectWithoutSpecGetsOne() throws Exception {
        resource().edit(oc -> {
            oc.getAdditionalProperties().remove("spec");
            return oc;
        });
        writer.write(false, "Initializing", "starting");
        assertThat(upgradeable()).containsEntry("reason", "Initializing");
    }

    // ---- helpers ----

    @SuppressWarnings("unchecked")
    private void olmCopiesSpecToStatus() {
        GenericKubernetesResource oc = resource().get();
        Map<String, Object> spec = (Map<String, Object>) oc.getAdditionalProperties().get("spec");
        oc.getAdditionalProperties().put("status", Map.of("conditions", spec.get("conditions")));
        admin.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(NS).resource(oc).updateStatus();
    }

    @SuppressWarnings("unchecked")
    private void editSpec(java.util.function.Consumer<Map<String, Object>> edit) {
        resource().edit(oc -> {
            Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) oc.getAdditionalProperties().get("spec"));
            spec.put("conditions", new ArrayList<>((List<Object>) spec.get("conditions")));
            edit.accept(spec);
            oc.getAdditionalProperties().put("spec", spec);
            return oc;
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> upgradeableIn(Map<String, Object> spec) {
        List<Object> conditions = (List<Object>) spec.get("conditions");
        for (int i = 0; i < conditions.size(); i++) {
            Map<String, Object> c = new LinkedHashMap<>((Map<String, Object>) conditions.get(i));
            if ("Upgradeable".equals(c.get("type"))) {
                conditions.set(i, c);
                return c;
            }
        }
        throw new AssertionError("no Upgradeable condition in " + spec);
    }

    private static Map<String, Object> condition(String type, String status, String reason, String message) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("type", type);
        c.put("status", status);
        c.put("reason", reason);
        c.put("message", message);
        c.put("lastTransitionTime", "2026-01-01T00:00:00Z");
        return c;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> spec() {
        return (Map<String, Object>) resource().get().getAdditionalProperties().get("spec");
    }

    private Map<String, Object> upgradeable() {
        return Cluster.upgradeableOf(resource().get());
    }

    private Resource<GenericKubernetesResource> resource() {
        return admin.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(NS).withName(name);
    }

    private List<AuditLog.Write> requests(Instant after) throws Exception {
        return AuditLog.requestsBy(api.auditLog(), NS, ACCOUNT, after).stream()
                .filter(w -> "operatorconditions".equals(w.resource())).toList();
    }

    private List<String> verbs(Instant after) throws Exception {
        return requests(after).stream().map(AuditLog.Write::verb).toList();
    }

    private List<Integer> codes(Instant after) throws Exception {
        return requests(after).stream().map(AuditLog.Write::code).toList();
    }

    /** The two settings the writer reads; anything else it asked for would fail the test. */
    private static OperatorSettings settings(String conditionName) {
        return (OperatorSettings) Proxy.newProxyInstance(OperatorSettings.class.getClassLoader(),
                new Class<?>[] { OperatorSettings.class }, (proxy, method, args) -> switch (method.getName()) {
                    case "namespace" -> NS;
                    case "operatorConditionName" -> Optional.of(conditionName);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
