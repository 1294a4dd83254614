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

    /**
     * cdi-operator renders neither spec.config's storage class nor the uninstall strategy into its
     * Deployments, and writes nothing after such a change: the write keeps the record of the status
     * CDI had already written for our last rendered intent (were it renewed, the gate would wait
     * forever). A change of what it renders, or a revert of an edit of it, takes a new record.
     */
    @Test
    void aChangeCdiDoesNotRenderKeepsTheRecordAndARenderedChangeTakesANewOne() {
        AtomicLong ticks = new AtomicLong();
        writer.useTicks(ticks::get);
        ComponentDescriptor cdi = ComponentCatalog.CDI;
        GenericKubernetesResource reported = withStatus(cdi, status("2026-12-05T10:00:10Z"));
        Map<String, Object> infra = Map.of("nodePlacement", Map.of("nodeSelector", Map.of("infra", "a")));
        assertThat(applyAfterHold(ticks, cdi, reported, Map.of("infra", infra,
                "config", Map.of("scratchSpaceStorageClass", "fast")))).isNotNull();
        String first = recorded(cdi);
        assertThat(first).isEqualTo(ObservationReader.statusFingerprint(reported));
        GenericKubernetesResource afterWrite = reportsAgain(cdi, status("2026-12-05T10:00:12Z"));

        Map<String, Object> storageOnly = Map.of("infra", infra, "config", Map.of("scratchSpaceStorageClass", "slow"));
        assertThat(applyAfterHold(ticks, cdi, afterWrite, storageOnly)).isNotNull();
        assertThat(specOf(cdi)).isEqualTo(storageOnly);
        assertThat(recorded(cdi)).as("a change CDI does not render keeps the record").isEqualTo(first);

        Map<String, Object> edited = new java.util.LinkedHashMap<>(specOf(cdi));
        edited.put("infra", Map.of("nodePlacement", Map.of("nodeSelector", Map.of("infra", "edited"))));
        GenericKubernetesResource byKubectl = ComponentResources.managed(client, cdi, NS).get();
        byKubectl.getAdditionalProperties().put("spec", edited);
        GenericKubernetesResource outOfBand = ComponentResources.of(client, cdi, NS).resource(byKubectl).update();
        assertThat(applyAfterHold(ticks, cdi, outOfBand, storageOnly)).isNotNull();
        assertThat(recorded(cdi)).as("reverting an edit of what CDI renders: it rolls back, a new record")
                .isEqualTo(ObservationReader.statusFingerprint(outOfBand));

        GenericKubernetesResource later = reportsAgain(cdi, status("2026-12-05T10:00:20Z"));
        Map<String, Object> moved = Map.of("infra", Map.of("nodePlacement", Map.of("nodeSelector", Map.of("infra", "b"))),
                "config", Map.of("scratchSpaceStorageClass", "slow"));
        assertThat(applyAfterHold(ticks, cdi, later, moved)).isNotNull();
        assertThat(recorded(cdi)).as("a change CDI renders: a new record")
                .isEqualTo(ObservationReader.statusFingerprint(later));
    }

    /** A write the one-second hold sends back is tried again once the test's clock moved past it. */
    private io.kubevirt.hco.core.WriteRecord applyAfterHold(AtomicLong ticks, ComponentDescriptor d,
            GenericKubernetesResource current, Map<String, Object> desired) {
        var written = writer.apply(d, current, desired, NS, "owner");
        Duration held = writer.takeHeldWrites();
        if (written == null && held != null) {
            ticks.addAndGet(held.toNanos());
            written = writer.apply(d, current, desired, NS, "owner");
        }
        return written;
    }

    private static Map<String, Object> status(String heartbeat) {
        return Map.of("conditions", List.of(Map.of("type", "Available", "status", "True", "lastHeartbeatTime", heartbeat)));
    }

    private GenericKubernetesResource reportsAgain(ComponentDescriptor d, Map<String, Object> status) {
        GenericKubernetesResource cr = ComponentResources.managed(client, d, NS).get();
        cr.getAdditionalProperties().put("status", status);
        return d.statusSubresource() ? ComponentResources.of(client, d, NS).resource(cr).updateStatus()
                : ComponentResources.of(client, d, NS).resource(cr).update();
    }

    private String recorded(ComponentDescriptor d) {
        return ComponentResources.managed(client, d, NS).get().getMetadata().getAnnotations()
                .get(ObservationReader.STATUS_AT_SPEC_WRITE);
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
        ComponentResources.of(client, d, NS).withName(d.crName()).delete();
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
