package io.kubevirt.hco.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.gate.OperatorConditionWriter;
import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;

/**
 * The audit judges each Upgradeable=True on the stack as it stood at the True's own revision, not
 * as it stands when the audit looks: a True that was right stays right after a component moves on,
 * a True written after the move is caught.
 */
class GateAuditTest {

    static final String NS = "audit";
    static final String OC = "hco-operator.v1.0.0";

    KubernetesMockServer api;
    KubernetesClient client;
    ComponentSimulator simulator;
    GateAudit audit;

    @BeforeEach
    void stack() {
        api = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(),
                false);
        api.init(InetAddress.getLoopbackAddress(), 0);
        client = api.createClient();
        for (var d : ComponentCatalog.ALL) {
            GenericKubernetesResource cr = new GenericKubernetesResource();
            cr.setApiVersion(d.apiVersion());
            cr.setKind(d.kind());
            cr.setMetadata(new ObjectMetaBuilder().withName(d.crName()).withNamespace(d.namespaced() ? NS : null).build());
            cr.setAdditionalProperty("spec", new LinkedHashMap<>(Map.of("feature", "on")));
            ComponentResources.of(client, d, NS).resource(cr).create();
        }
        Cluster cluster = new Cluster(client, NS);
        cluster.createOperatorCondition(OC);
        simulator = new ComponentSimulator(client, NS, "1.0.0");
        simulator.tick();
        audit = new GateAudit(cluster, NS, OC, (d, cr, v) -> simulator.convergedAsOf(cr, v), "1.0.0");
    }

    @AfterEach
    void stop() {
        audit.close();
        simulator.close();
        client.close();
        api.destroy();
    }

    @Test
    void aTrueIsJudgedAtItsOwnRevision() {
        writeUpgradeable("True", "every component converged");
        awaitRevisions(1);
        // the stack moves on after the True was written: that True was still right
        simulator.behave("KubeVirt", Behaviour.PROGRESSING).tick("KubeVirt");
        assertThat(simulator.converged("KubeVirt", "1.0.0")).isFalse();
        assertThat(audit.violations()).isEmpty();

        // a True written now is false, and named with its component
        writeUpgradeable("True", "written while KubeVirt progresses");
        awaitRevisions(2);
        assertThat(audit.violations()).singleElement().asString().contains("[KubeVirt]", "at revision");
    }

    @Test
    void aSpecChangeTheComponentHasNotReflectedYetIsNotConverged() {
        var kubevirt = ComponentCatalog.ALL.stream().filter(d -> d.name().equals("KubeVirt")).findFirst().orElseThrow();
        ComponentResources.managed(client, kubevirt, NS).edit(cr -> {
            cr.setAdditionalProperty("spec", new LinkedHashMap<>(Map.of("feature", "off")));
            return cr;
        });
        writeUpgradeable("True", "written before KubeVirt looked at its new spec");
        awaitRevisions(1);
        assertThat(audit.violations()).singleElement().asString().contains("[KubeVirt]");
    }

    private void awaitRevisions(int n) {
        await().atMost(Duration.ofSeconds(10)).until(() -> audit.revisions().size() >= n);
    }

    @SuppressWarnings("unchecked")
    private void writeUpgradeable(String status, String message) {
        client.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(NS).withName(OC).edit(oc -> {
            Map<String, Object> spec = (Map<String, Object>) oc.getAdditionalProperties()
                    .computeIfAbsent("spec", k -> new LinkedHashMap<>());
            spec.put("conditions", List.of(Map.of("type", "Upgradeable", "status", status, "reason", "AsExpected",
                    "message", message, "lastTransitionTime", "2026-12-06T00:00:00Z")));
            return oc;
        });
    }
}
