package io.kubevirt.hco.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.components.ObservationReader;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;

/**
 * A component proven only by a status written after our spec write (CDI) gets no spec write within
 * a second of its last status write: its next status would otherwise be the one it just wrote
 * (heartbeat in the same second), which it does not write again, and the gate would wait forever.
 * No HyperConverged exists here, so nothing but the test drives the writer; its clock is the test's.
 */
@QuarkusTest
@TestProfile(SpecWriteHoldTest.OwnApplication.class)
@WithKubernetesTestServer(crud = true, setup = OlmInstalledOperator.class)
class SpecWriteHoldTest {

    static final String NS = GateLifecycleTest.NS;

    @Inject
    KubernetesClient client;

    @Inject
    ComponentWriter writer;

    @Test
    void aSpecWriteWaitsOneSecondAfterTheStatusItWouldOtherwiseRepeat() {
        AtomicLong ticks = new AtomicLong();
        writer.useTicks(ticks::get);
        ComponentDescriptor cdi = ComponentCatalog.CDI;
        GenericKubernetesResource reported = withStatus(cdi, Map.of("conditions", List.of(Map.of("type", "Available",
                "status", "True", "lastHeartbeatTime", "2026-12-05T10:00:10Z"))));
        Map<String, Object> desired = Map.of("config", Map.of("scratchSpaceStorageClass", "fast"));

        assertThat(writer.apply(cdi, reported, desired, NS, "owner")).isNull();
        assertThat(writer.takeHeldWrites()).isEqualTo(Duration.ofSeconds(1));

        ticks.addAndGet(Duration.ofMillis(600).toNanos());
        assertThat(writer.apply(cdi, reported, desired, NS, "owner")).isNull();
        assertThat(writer.takeHeldWrites()).isEqualTo(Duration.ofMillis(400));
        assertThat(specOf(cdi)).doesNotContainKey("config");

        ticks.addAndGet(Duration.ofMillis(400).toNanos());
        assertThat(writer.apply(cdi, reported, desired, NS, "owner")).isNotNull();
        assertThat(writer.takeHeldWrites()).isNull();
        assertThat(specOf(cdi)).isEqualTo(desired);
        assertThat(ComponentResources.managed(client, cdi, NS).get().getMetadata().getAnnotations())
                .containsEntry(ObservationReader.STATUS_AT_SPEC_WRITE, ObservationReader.statusFingerprint(reported));
    }

    @Test
    void aComponentProvenByItsObservedGenerationIsNeverHeld() {
        writer.useTicks(() -> 0L);
        ComponentDescriptor kubevirt = ComponentCatalog.KUBEVIRT;
        GenericKubernetesResource reported = withStatus(kubevirt, Map.of("observedGeneration", 1));

        assertThat(writer.apply(kubevirt, reported, Map.of("uninstallStrategy", "BlockUninstallIfWorkloadsExist"), NS,
                "owner")).isNotNull();
        assertThat(writer.takeHeldWrites()).isNull();
    }

    private GenericKubernetesResource withStatus(ComponentDescriptor d, Map<String, Object> status) {
        GenericKubernetesResource cr = new GenericKubernetesResource();
        cr.setApiVersion(d.apiVersion());
        cr.setKind(d.kind());
        cr.setMetadata(new ObjectMetaBuilder().withName(d.crName()).withNamespace(d.namespaced() ? NS : null).build());
        cr.getAdditionalProperties().put("spec", Map.of());
        var created = ComponentResources.of(client, d, NS).resource(cr).create();
        created.getAdditionalProperties().put("status", status);
        return d.statusSubresource() ? ComponentResources.of(client, d, NS).resource(created).updateStatus()
                : ComponentResources.of(client, d, NS).resource(created).update();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> specOf(ComponentDescriptor d) {
        return (Map<String, Object>) ComponentResources.managed(client, d, NS).get().getAdditionalProperties().get("spec");
    }

    public static class OwnApplication implements QuarkusTestProfile {
    }
}
