package io.kubevirt.hco.snapshot;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.lifecycle.ProcessLifecycle;
import io.kubevirt.hco.observability.GateMetrics;
import io.kubevirt.hco.support.DaemonTimer;

/**
 * The quorum reads that confirm an opening (GateService): the HyperConverged and every component
 * CR of the stack, sent together, so a round costs about one API round trip.
 * <p>
 * An opening that waits out the stabilization window is known in advance, and so is when the pass
 * that opens will run. The round is then sent {@link #lead()} ahead of that pass, so that it is
 * back when the pass needs it (bench: the confirmation's round trip was the largest part of an
 * opening beyond the API server's own). Those reads stand in for reads sent by the pass only if
 * they were sent at most {@link #MAX_AGE} before its snapshot was taken and returned exactly the
 * revisions the pass's caches hold: then the caches were current as of the reads, and the reads
 * say nothing the caches do not. Otherwise the pass reads again, as it did before.
 */
@ApplicationScoped
public class ConfirmationReads {

    /**
     * How old reads sent ahead may be and still confirm an opening. Reads sent by the pass itself
     * are older than this by the time the OperatorCondition write lands on a slow API server; the
     * guarantee is "a quorum read at most this old, and nothing newer in the caches".
     */
    public static final Duration MAX_AGE = Duration.ofMillis(50);
    /** The lead never exceeds this, so that reads sent ahead are young enough even if the pass runs a little late. */
    static final Duration MAX_LEAD = Duration.ofMillis(30);
    static final Duration MIN_LEAD = Duration.ofMillis(1);

    @Inject
    KubernetesClient client;

    @Inject
    OperatorSettings settings;

    @Inject
    ProcessLifecycle lifecycle;

    @Inject
    GateMetrics metrics;

    /** One round's objects; a component whose CR is absent maps to null. */
    public record Round(Instant sentAt, HyperConverged hyperConverged, Map<ComponentDescriptor, GenericKubernetesResource> components) {

        /** Whether this round returned exactly the revisions the caches hold for the same objects. */
        boolean sameRevisionsAs(HasMetadata cachedHco, Function<ComponentDescriptor, GenericKubernetesResource> cached,
                Collection<ComponentDescriptor> stack) {
            if (!components.keySet().containsAll(stack) || !sameRevision(hyperConverged, cachedHco)) {
                return false;
            }
            for (ComponentDescriptor d : stack) {
                if (!sameRevision(components.get(d), cached.apply(d))) {
                    return false;
                }
            }
            return true;
        }

        private static boolean sameRevision(HasMetadata read, HasMetadata cached) {
            return read == null ? cached == null
                    : cached != null && Objects.equals(read.getMetadata().getResourceVersion(),
                            cached.getMetadata().getResourceVersion());
        }
    }

    /** A round in flight. */
    private record Sent(Instant sentAt, long sentNanos, CompletableFuture<HyperConverged> hyperConverged,
            Map<ComponentDescriptor, CompletableFuture<GenericKubernetesResource>> components) {
    }

    /** Threads for a round's concurrent reads; idle ones end after a minute. */
    private final ExecutorService reads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
            new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "hco-confirmation-read");
                t.setDaemon(true);
                return t;
            });
    private final ScheduledExecutorService timer = DaemonTimer.named("hco-confirmation-ahead");
    private ScheduledFuture<?> scheduled;
    private volatile Sent ahead;
    /** A moving estimate of one round's duration (the lead); starts at 5 ms. */
    private volatile long roundNanos = TimeUnit.MILLISECONDS.toNanos(5);

    /** Reads the stack now, and waits for the round. */
    public Round now(Collection<ComponentDescriptor> stack) {
        return joined(send(stack));
    }

    /**
     * Sends a round {@link #lead()} before {@code untilPass} from now, replacing one planned before.
     */
    public synchronized void aheadOf(Duration untilPass, Collection<ComponentDescriptor> stack) {
        cancelAhead();
        List<ComponentDescriptor> components = List.copyOf(stack);
        long delay = Math.max(0, untilPass.toNanos() - lead().toNanos());
        scheduled = timer.schedule(() -> {
            ahead = send(components);
        }, delay, TimeUnit.NANOSECONDS);
    }

    /** No opening is planned any more: a round planned ahead of it is not sent, one sent is dropped. */
    public synchronized void cancelAhead() {
        if (scheduled != null) {
            scheduled.cancel(false);
            scheduled = null;
        }
        ahead = null;
    }

    /**
     * The round sent ahead, if it can stand in for one sent now by a pass whose snapshot was taken at
     * {@code snapshotAt} from the given caches; null otherwise. Either way it is used up.
     */
    public Round aheadMatching(Instant snapshotAt, HasMetadata cachedHco,
            Function<ComponentDescriptor, GenericKubernetesResource> cached, Collection<ComponentDescriptor> stack) {
        Sent sent;
        synchronized (this) {
            sent = ahead;
            ahead = null;
        }
        if (sent == null) {
            return null;
        }
        Round round = null;
        if (!sent.sentAt().isBefore(snapshotAt.minus(MAX_AGE))) {
            try {
                round = joined(sent);
            } catch (RuntimeException failed) {
                round = null; // the pass reads again; only its own failed read closes the gate
            }
        }
        if (round != null && round.sameRevisionsAs(cachedHco, cached, stack)) {
            metrics.confirmationReadsAhead(true);
            return round;
        }
        metrics.confirmationReadsAhead(false);
        return null;
    }

    /** Whether a round planned ahead has been sent and not used up yet. */
    boolean aheadSent() {
        return ahead != null;
    }

    /** How long before a planned pass its round is sent: the recent round duration, within bounds. */
    public Duration lead() {
        long nanos = Math.min(Math.max(roundNanos, MIN_LEAD.toNanos()), MAX_LEAD.toNanos());
        return Duration.ofNanos(nanos);
    }

    private Sent send(Collection<ComponentDescriptor> stack) {
        Instant at = lifecycle.now();
        long started = System.nanoTime();
        Map<ComponentDescriptor, CompletableFuture<GenericKubernetesResource>> components = new LinkedHashMap<>();
        for (ComponentDescriptor d : stack) {
            components.put(d, CompletableFuture.supplyAsync(
                    () -> ComponentResources.managed(client, d, settings.namespace()).get(), reads));
        }
        CompletableFuture<HyperConverged> hco = CompletableFuture.supplyAsync(() -> client.resources(HyperConverged.class)
                .inNamespace(settings.namespace()).withName(HyperConverged.SINGLETON_NAME).get(), reads);
        List<CompletableFuture<?>> all = new java.util.ArrayList<>(components.values());
        all.add(hco);
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).whenComplete((ok, failed) -> {
            if (failed == null) {
                roundNanos = (3 * roundNanos + (System.nanoTime() - started)) / 4;
            }
        });
        return new Sent(at, started, hco, components);
    }

    /** The round's objects, or its first failure as thrown by the client (a failed read closes the gate). */
    private static Round joined(Sent sent) {
        try {
            Map<ComponentDescriptor, GenericKubernetesResource> components = new LinkedHashMap<>();
            sent.components().forEach((d, read) -> components.put(d, read.join()));
            return new Round(sent.sentAt(), sent.hyperConverged().join(), components);
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }
}
