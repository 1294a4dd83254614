package io.kubevirt.hco.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

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
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.lifecycle.ProcessLifecycle;
import io.kubevirt.hco.observability.GateMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * When reads sent ahead of a planned opening may stand in for the reads of the pass that opens:
 * only young enough, and only when they found exactly the revisions the pass's caches hold.
 */
class ConfirmationReadsTest {

    static final String NS = "confirm";
    static final Instant SENT = Instant.parse("2026-12-06T10:00:00Z");

    KubernetesMockServer api;
    KubernetesClient client;
    ConfirmationReads reads;
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    HyperConverged hco;
    final Map<ComponentDescriptor, GenericKubernetesResource> crs = new LinkedHashMap<>();
    final List<ComponentDescriptor> stack = ComponentCatalog.ALL;

    @BeforeEach
    void stack() {
        api = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(),
                false);
        api.init(InetAddress.getLoopbackAddress(), 0);
        client = api.createClient();
        HyperConverged h = new HyperConverged();
        h.setMetadata(new ObjectMetaBuilder().withName(HyperConverged.SINGLETON_NAME).withNamespace(NS).build());
        hco = client.resources(HyperConverged.class).inNamespace(NS).resource(h).create();
        for (ComponentDescriptor d : stack) {
            GenericKubernetesResource cr = new GenericKubernetesResource();
            cr.setApiVersion(d.apiVersion());
            cr.setKind(d.kind());
            cr.setMetadata(new ObjectMetaBuilder().withName(d.crName()).withNamespace(d.namespaced() ? NS : null).build());
            crs.put(d, ComponentResources.of(client, d, NS).resource(cr).create());
        }
        reads = new ConfirmationReads();
        reads.client = client;
        reads.settings = settings();
        reads.lifecycle = new ProcessLifecycle(reads.settings, Clock.fixed(SENT, ZoneOffset.UTC));
        reads.metrics = new GateMetrics() {
            @Override
            public void confirmationReadsAhead(boolean used) {
                registry.counter("ahead", "outcome", used ? "used" : "dropped").increment();
            }
        };
    }

    @AfterEach
    void stop() {
        client.close();
        api.destroy();
    }

    @Test
    void readsAheadThatFoundWhatTheCachesHoldStandInWithoutAnotherRequest() {
        reads.aheadOf(Duration.ZERO, stack);
        ConfirmationReads.Round round = awaitAhead(SENT.plusMillis(10), hco, crs::get);
        assertThat(round).isNotNull();
        assertThat(round.hyperConverged().getMetadata().getResourceVersion())
                .isEqualTo(hco.getMetadata().getResourceVersion());
        assertThat(round.components()).containsOnlyKeys(stack);
        int requests = api.getRequestCount();
        assertThat(reads.aheadMatching(SENT.plusMillis(10), hco, crs::get, stack)).as("used up").isNull();
        assertThat(api.getRequestCount()).isEqualTo(requests);
        assertThat(registry.counter("ahead", "outcome", "used").count()).isEqualTo(1);
    }

    @Test
    void readsAheadOfACacheThatLagsAreDropped() {
        reads.aheadOf(Duration.ZERO, stack);
        ComponentDescriptor kubevirt = stack.get(0);
        GenericKubernetesResource lagging = new GenericKubernetesResource();
        lagging.setMetadata(new ObjectMetaBuilder().withName(kubevirt.crName()).withResourceVersion("older-than-" + crs.get(kubevirt).getMetadata().getResourceVersion()).build());
        Map<ComponentDescriptor, GenericKubernetesResource> cache = new LinkedHashMap<>(crs);
        cache.put(kubevirt, lagging);
        assertThat(awaitAhead(SENT.plusMillis(10), hco, cache::get)).isNull();
        assertThat(registry.counter("ahead", "outcome", "dropped").count()).isEqualTo(1);
    }

    @Test
    void readsAheadOlderThanTheBoundAreDropped() {
        reads.aheadOf(Duration.ZERO, stack);
        Instant late = SENT.plus(ConfirmationReads.MAX_AGE).plusMillis(1);
        assertThat(awaitAhead(late, hco, crs::get)).isNull();
        assertThat(registry.counter("ahead", "outcome", "dropped").count()).isEqualTo(1);
    }

    @Test
    void readsAheadThatMissAComponentOfTheStackAreDropped() {
        reads.aheadOf(Duration.ZERO, stack.subList(0, 2));
        assertThat(awaitAhead(SENT.plusMillis(10), hco, crs::get)).isNull();
    }

    @Test
    void aCancelledPlanSendsNothing() {
        reads.aheadOf(Duration.ofMinutes(1), stack);
        reads.cancelAhead();
        int requests = api.getRequestCount();
        assertThat(reads.aheadMatching(SENT, hco, crs::get, stack)).isNull();
        assertThat(api.getRequestCount()).isEqualTo(requests);
    }

    @Test
    void readsNowReturnTheApiServersObjects() {
        ConfirmationReads.Round round = reads.now(stack);
        assertThat(round.components().keySet()).containsExactlyElementsOf(stack);
        assertThat(round.components().values()).allMatch(cr -> cr != null);
        assertThat(round.hyperConverged()).isNotNull();
    }

    /**
     * The round sent ahead as a pass at {@code snapshotAt} would take it: once sent (the timer's
     * thread sends it; a round still in flight is joined by aheadMatching).
     */
    private ConfirmationReads.Round awaitAhead(Instant snapshotAt, HyperConverged cachedHco,
            Function<ComponentDescriptor, GenericKubernetesResource> cached) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!reads.aheadSent() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(reads.aheadSent()).as("the round was sent").isTrue();
        return reads.aheadMatching(snapshotAt, cachedHco, cached, new ArrayList<>(stack));
    }

    private static OperatorSettings settings() {
        return (OperatorSettings) Proxy.newProxyInstance(OperatorSettings.class.getClassLoader(),
                new Class<?>[] { OperatorSettings.class }, (proxy, method, args) -> switch (method.getName()) {
                    case "namespace" -> NS;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
