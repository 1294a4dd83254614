package io.kubevirt.hco.gate;

import java.time.Clock;
import java.time.Instant;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.Assessment;
import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.core.GateEvaluator;
import io.kubevirt.hco.core.GateInput;
import io.kubevirt.hco.core.HyperConvergedObservation;
import io.kubevirt.hco.core.MonotonicClock;
import io.kubevirt.hco.observability.LogContext;
import io.kubevirt.hco.core.GateReason;
import io.kubevirt.hco.core.Stabilizer;
import io.kubevirt.hco.observability.GateEvents;
import io.kubevirt.hco.observability.GateMetrics;

/**
 * The shell around the pure gate: keeps the little state a decision needs between snapshots
 * (stabilization start, leadership, first full reconcile; the component writes' records are
 * ComponentWriter's) and publishes
 * each decision to OLM, metrics and events. All of its state is process-local on purpose: losing
 * it only closes the gate (Initializing) until the next full reconcile.
 */
@ApplicationScoped
public class GateService {

    private static final Logger LOG = Logger.getLogger(GateService.class);

    @Inject
    OperatorSettings settings;

    @Inject
    OperatorConditionWriter writer;

    @Inject
    GateMetrics metrics;

    @Inject
    GateEvents events;

    /** Monotonic: a step of the wall clock (NTP) neither shortens nor stretches the stabilization window. */
    Clock clock = MonotonicClock.startingNow();

    private volatile boolean fullReconcileDone;
    private volatile boolean leader;
    private volatile boolean held;
    /**
     * The current decision is not in the OperatorCondition yet (its write failed, or Initializing
     * went first). Without another event nothing would evaluate again, and OLM would keep reading
     * the previous value, possibly True: the reconciler comes back after the write-retry interval.
     */
    private volatile boolean writePending;
    private Instant openSince;
    private volatile GateDecision current;
    private volatile Instant currentSince;
    private volatile GateInput currentInput;
    private volatile boolean shuttingDown;
    private Instant upgradeObservedSince;
    private String upgradePhase;
    private final java.util.Set<String> convergedDuringUpgrade = new java.util.HashSet<>();
    private Instant lastPublishedAt;
    private long publications;
    /** Why an informer's cache stopped following the cluster; once set, every decision is closed. */
    private volatile String frozenCache;

    public String operatorVersion() {
        return settings.operatorVersion().filter(v -> !v.isBlank()).orElse(null);
    }

    public Instant now() {
        return clock.instant();
    }

    /**
     * Closes the gate before anything else is written. Returns whether it succeeded; until it has,
     * readiness stays DOWN and no True is ever written.
     */
    public synchronized boolean holdAtStartup() {
        if (held) {
            return true;
        }
        try {
            writer.write(false, GateReason.Initializing.name(),
                    "operator version " + operatorVersion() + " is starting; the gate stays closed until its first full reconcile");
            held = true;
            LOG.infof("gate held: Upgradeable=False/Initializing written%s",
                    writer.enabled() ? " to OperatorCondition " + writer.name().orElseThrow() : " (no OLM: no-op)");
        } catch (RuntimeException e) {
            metrics.operatorConditionWriteFailed();
            LOG.warnf("could not hold the gate at start-up yet: %s", e.getMessage());
        }
        return held;
    }

    public boolean operatorConditionWritePending() {
        return writePending;
    }

    public boolean held() {
        return held;
    }

    public void leadership(boolean isLeader) {
        this.leader = isLeader;
        if (isLeader) {
            leadershipListeners.forEach(Runnable::run);
        }
    }

    /** Runs {@code listener} each time this process becomes the leader (work that only the leader does may start). */
    public void onLeadership(Runnable listener) {
        leadershipListeners.add(listener);
        if (leader) {
            listener.run();
        }
    }

    private final java.util.List<Runnable> leadershipListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public boolean leader() {
        return leader;
    }

    public void shutdownStarted() {
        shuttingDown = true;
    }

    public boolean shuttingDown() {
        return shuttingDown;
    }

    public void fullReconcileDone() {
        fullReconcileDone = true;
    }

    public boolean isFullReconcileDone() {
        return fullReconcileDone;
    }

    /** Decides on one snapshot and publishes the decision, as one step. */
    public synchronized GateDecision evaluate(GateInput input, HasMetadata eventTarget) {
        return evaluate(input, eventTarget, null);
    }

    /**
     * Decides on one snapshot and publishes the decision. A decision that would open a closed gate
     * is first confirmed on {@code freshRead} (quorum reads of the HyperConverged and every
     * component CR, not the caches): the opening is published only if the fresh snapshot opens it
     * too, otherwise the fresh snapshot's decision is. A failed fresh read closes the gate.
     */
    public synchronized GateDecision evaluate(GateInput input, HasMetadata eventTarget, Supplier<GateInput> freshRead) {
        input = closedIfFrozen(input);
        GateDecision decision = decide(input);
        if (decision.upgradeable() && freshRead != null && !openInOperatorCondition()) {
            GateInput fresh;
            try {
                fresh = freshRead.get();
            } catch (RuntimeException e) {
                fresh = input.withEvaluationError("confirming the decision on fresh reads failed: " + e.getMessage());
            }
            metrics.openingConfirmed();
            input = closedIfFrozen(fresh);
            decision = decide(fresh);
        }
        publish(input, decision, eventTarget);
        return decision;
    }

    /**
     * An informer stopped: the caches that decisions are read from no longer follow the cluster.
     * Closes the gate now (a decision already published may be True), and keeps every later
     * decision of this process closed.
     */
    public synchronized void cacheFrozen(String why) {
        frozenCache = why;
        if (currentInput != null) {
            GateInput input = closedIfFrozen(currentInput.at(now()));
            publish(input, decide(input), null);
        }
    }

    /**
     * A HyperConverged appeared while the published decision may say "nothing installed" (open):
     * closes at once, from the last snapshot with the new HyperConverged in it (not applied yet),
     * before anything installs the stack.
     */
    public synchronized void stackAppeared(HyperConvergedObservation hco) {
        if (current != null && current.upgradeable() && currentInput != null
                && !currentInput.hyperConverged().present()) {
            GateInput input = closedIfFrozen(currentInput.at(now()).withHyperConverged(hco));
            publish(input, decide(input), null);
        }
    }

    private GateInput closedIfFrozen(GateInput input) {
        String why = frozenCache;
        if (why == null) {
            return input;
        }
        // the frozen cache goes first: it is what a restart cures, whatever else failed with it
        return input.withEvaluationError(input.evaluationError() == null || input.evaluationError().startsWith(why) ? why
                : why + "; also: " + input.evaluationError());
    }

    /** The OperatorCondition (as far as this process knows) already says True. */
    private boolean openInOperatorCondition() {
        return current != null && current.upgradeable() && !writePending;
    }

    /**
     * Like {@link #evaluate}, but only if nothing was published since {@code seenPublications}: a
     * snapshot read outside the reconciler must not overwrite a newer decision of the reconciler.
     */
    public synchronized GateDecision evaluateIfQuiet(long seenPublications, GateInput input) {
        if (publications != seenPublications) {
            return null;
        }
        return evaluate(input, null);
    }

    public synchronized long publications() {
        return publications;
    }

    /** Decides on one snapshot, applying the stabilization window; does not publish. */
    synchronized GateDecision decide(GateInput input) {
        long started = System.nanoTime();
        Assessment assessment = GateEvaluator.assess(input);
        metrics.evaluationTimer().record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
        GateDecision decision = Stabilizer.decide(assessment, openSince, settings.gate().stabilizationWindow(),
                input.now());
        openSince = decision.openSince();
        return decision;
    }

    /**
     * Publishes a decision: OperatorCondition (leader only, and True only once the gate was held),
     * metrics, and a log line plus Event on transition. A failed write is counted and retried by the
     * caller's next evaluation; it never opens anything.
     */
    synchronized void publish(GateInput input, GateDecision decision, HasMetadata eventTarget) {
        try (var log = LogContext.of(input, decision)) {
            publishInContext(input, decision, eventTarget);
        }
    }

    private void publishInContext(GateInput input, GateDecision decision, HasMetadata eventTarget) {
        publications++;
        metrics.record(input, decision);
        boolean transition = current == null || current.upgradeable() != decision.upgradeable()
                || current.reason() != decision.reason();
        if (transition) {
            metrics.transition(decision.reason(), decision.upgradeable());
            currentSince = input.now();
        }
        if (current != null && !current.upgradeable() && lastPublishedAt != null) {
            metrics.closedFor(current.reason(), java.time.Duration.between(lastPublishedAt, input.now()));
        }
        lastPublishedAt = input.now();
        trackUpgrade(input, decision);
        GateDecision previous = current;
        current = decision;
        currentInput = input;
        // what OLM reads goes first, the Event and log line follow (bench: one API round trip less
        // between a component's change and OLM seeing it); the write handles its own failures
        writeOperatorCondition(decision);
        if (transition) {
            events.transition(previous, decision, eventTarget);
        }
    }

    private void writeOperatorCondition(GateDecision decision) {
        if (!leader) {
            return;
        }
        try {
            if (decision.upgradeable() && !held) {
                // the first write of a process is always a closing one (the gate's contract in
                // docs/architecture.md: held before anything else); the decision follows next pass
                writer.write(false, GateReason.Initializing.name(), "the gate is being taken by version " + operatorVersion());
                held = true;
                writePending = true;
                return;
            }
            // always through the writer: it compares with the live object, so a stray write by
            // another replica or by hand is corrected on the next evaluation
            writer.write(decision.upgradeable(), decision.reason().name(), decision.message());
            held = true;
            writePending = false;
        } catch (RuntimeException e) {
            writePending = true;
            metrics.operatorConditionWriteFailed();
            LOG.warnf("OperatorCondition write failed (OLM keeps reading the previous value, or none): %s",
                    e.getMessage());
        }
    }

    /**
     * Upgrade timing as this process sees it: from the first decision that found an install or
     * upgrade in progress to the one that found it recorded; per component, when it first
     * converged meanwhile. A restarted process starts counting again (documented).
     */
    private void trackUpgrade(GateInput input, GateDecision decision) {
        boolean upgrading = decision.assessment().upgrade().inProgress() && input.hyperConverged().present();
        if (upgrading) {
            if (upgradeObservedSince == null) {
                upgradeObservedSince = input.now();
                upgradePhase = decision.assessment().upgrade().phase().name();
                convergedDuringUpgrade.clear();
            }
            for (GateInput.Component c : input.components()) {
                String name = c.expectation().component();
                if (decision.assessment().blockerOf(name) == null && convergedDuringUpgrade.add(name)) {
                    metrics.componentConverged(name, java.time.Duration.between(upgradeObservedSince, input.now()));
                }
            }
        } else if (upgradeObservedSince != null) {
            metrics.upgradeCompleted(upgradePhase, java.time.Duration.between(upgradeObservedSince, input.now()));
            upgradeObservedSince = null;
        }
    }

    /** The current decision with its evidence; null before the first decision. */
    public synchronized io.kubevirt.hco.core.GateExplanation explain() {
        if (current == null || currentInput == null) {
            return null;
        }
        return io.kubevirt.hco.core.GateExplanation.of(currentInput, current, currentSince,
                settings.gate().stabilizationWindow(), upgradeObservedSince);
    }

    public GateDecision current() {
        return current;
    }

    public Instant currentSince() {
        return currentSince;
    }

    public GateInput currentInput() {
        return currentInput;
    }

}
