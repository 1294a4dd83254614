package io.kubevirt.hco.gate;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.ComponentObservation;
import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.core.GateEvaluator;
import io.kubevirt.hco.core.GateExplanation;
import io.kubevirt.hco.core.GateInput;
import io.kubevirt.hco.core.GateReason;
import io.kubevirt.hco.core.GateState;
import io.kubevirt.hco.core.HyperConvergedObservation;
import io.kubevirt.hco.lifecycle.ProcessLifecycle;
import io.kubevirt.hco.observability.GateMetrics;
import io.kubevirt.hco.observability.LogContext;

/**
 * Takes the gate's decisions, one at a time: assesses a snapshot (core), applies the window
 * ({@link GateState}), confirms an opening on fresh reads, and hands the decision to the
 * {@link GatePublisher}.
 */
@ApplicationScoped
public class GateService {

    @Inject
    OperatorSettings settings;

    @Inject
    ProcessLifecycle lifecycle;

    @Inject
    GatePublisher publisher;

    @Inject
    GateMetrics metrics;

    /**
     * How long ahead of the window's end the pass that may open is scheduled: long enough for a
     * pass's apply, snapshot and decision (about 2 ms on the bench's JVM), short enough that the
     * reconciler's thread waits only a few milliseconds.
     */
    public static final Duration PREPARE_LEAD = Duration.ofMillis(10);
    /** An opening due within this long is prepared by the pass; one due later waits for the next pass. */
    static final Duration PREPARE_WITHIN = Duration.ofMillis(25);

    private final GateState state = new GateState();
    /** What the transition Events of a closing outside a pass are about: the HyperConverged of the last pass. */
    private HasMetadata lastEventTarget;

    /** A published decision with the input it was taken on and the stack's conditions it yields. */
    public record Verdict(GateInput input, GateDecision decision, java.util.List<io.kubevirt.hco.core.Condition> conditions) {
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
        return verdict(input, eventTarget, freshRead).decision();
    }

    /** {@link #evaluate(GateInput, HasMetadata, Supplier)}, with what was published. */
    public synchronized Verdict verdict(GateInput input, HasMetadata eventTarget, Supplier<GateInput> freshRead) {
        return verdict(input, eventTarget, freshRead, null);
    }

    /**
     * Like {@link #verdict(GateInput, HasMetadata, Supplier)}; given {@code unchanged} (whether the
     * caches still hold what {@code input} was taken from), an opening due within
     * {@link #PREPARE_WITHIN} is prepared: taken now as of the instant the window ends, confirmed,
     * then published at that instant if the caches are still unchanged. Otherwise the pass publishes
     * the decision of its own instant (Stabilizing), and the event that changed the caches brings
     * the next pass.
     * <p>
     * Why: a pass at the end of the window, then its confirmation, used to stand between the
     * window's end and the OperatorCondition write (bench: about a third of an opening's time beyond
     * the API server's own). Prepared, the write goes out at the instant itself. The guarantee is the
     * one a pass at that instant gives: quorum reads at most {@code ConfirmationReads.MAX_AGE} older
     * than the snapshot, and nothing newer in the caches when the write is sent.
     */
    public synchronized Verdict verdict(GateInput input, HasMetadata eventTarget, Supplier<GateInput> freshRead,
            BooleanSupplier unchanged) {
        input = state.closedIfFrozen(input);
        GateInput taken = input;
        GateDecision decision = decide(input);
        Instant openAt = unchanged == null ? null : dueOpening(decision, input);
        if (openAt != null) {
            // the window ends exactly at openAt: as of then, the same snapshot opens
            input = input.at(openAt);
            decision = decide(input);
        }
        if (decision.upgradeable() && freshRead != null && !openInOperatorCondition()) {
            GateInput fresh;
            long started = System.nanoTime();
            try {
                fresh = freshRead.get();
            } catch (RuntimeException e) {
                fresh = input.withEvaluationError("confirming the decision on fresh reads failed: " + e.getMessage());
            }
            metrics.phaseDone("confirm", started);
            metrics.openingConfirmed();
            input = state.closedIfFrozen(fresh);
            GateInput asOf = openAt != null ? input.at(openAt) : input;
            decision = decide(asOf);
            if (decision.upgradeable()) {
                input = asOf;
            } else if (openAt != null) {
                // closed on the fresh reads: that decision is published at its own instant
                openAt = null;
                decision = decide(input);
            }
        }
        if (openAt != null && decision.upgradeable()) {
            long started = System.nanoTime();
            boolean quiet = lifecycle.awaitInstant(openAt) && unchanged.getAsBoolean();
            metrics.phaseDone("window-end", started);
            metrics.preparedOpening(quiet);
            if (!quiet) {
                input = taken;
                decision = decide(taken);
            }
        }
        return publish(input, decision, eventTarget);
    }

    /**
     * An opening that waits out the rest of the window, when that rest is short enough to prepare it
     * in this pass; null otherwise. Scheduled passes come {@link #PREPARE_LEAD} ahead of the window's end.
     */
    private static Instant dueOpening(GateDecision decision, GateInput input) {
        return !decision.upgradeable() && decision.reason() == GateReason.Stabilizing && decision.recheckAfter() != null
                && decision.recheckAfter().compareTo(PREPARE_WITHIN) <= 0 ? input.now().plus(decision.recheckAfter()) : null;
    }

    /**
     * An informer stopped: the caches that decisions are read from no longer follow the cluster.
     * Closes the gate now (a decision already published may be True), and keeps every later
     * decision of this process closed.
     */
    public synchronized void cacheFrozen(String why) {
        state.freeze(why);
        if (state.currentInput() != null) {
            GateInput input = lastSnapshotNow(java.util.function.UnaryOperator.identity());
            publish(input, decide(input), null);
        }
    }

    /**
     * A HyperConverged appeared while the published decision may say "nothing installed" (open):
     * closes at once, from the last snapshot with the new HyperConverged in it (not applied yet),
     * before anything installs the stack.
     */
    public synchronized void stackAppeared(HyperConvergedObservation hco) {
        if (state.openOnNoStack()) {
            GateInput input = lastSnapshotNow(last -> last.withHyperConverged(hco));
            publish(input, decide(input), null);
        }
    }

    /**
     * A component's CR changed (or went away) while the published decision is open: if the last
     * snapshot with the CR as now seen closes, that is published at once, from the informer's
     * thread, ahead of the pass the same event wakes (bench: the pass's dispatch, apply and
     * snapshot stood between a degradation and OLM reading False). Only a closing is published
     * here, and closing is always safe; the pass that follows decides on a whole snapshot and
     * stays the only one that opens.
     */
    public void componentSeen(String component, ComponentObservation seen) {
        // read without the lock: a pass preparing an opening holds it for up to PREPARE_LEAD, and the
        // informer's thread need not wait for it while the gate is closed (the pass checks the caches
        // after its wait, and this event is already in them)
        if (!state.open()) {
            return;
        }
        closeIfSeenCloses(component, seen);
    }

    private synchronized void closeIfSeenCloses(String component, ComponentObservation seen) {
        if (!state.open() || state.currentInput() == null) {
            return;
        }
        GateInput input = lastSnapshotNow(last -> last.withComponentSeen(component, seen));
        GateDecision decision = decide(input);
        if (!decision.upgradeable()) {
            metrics.closedFromEvent();
            publish(input, decision, lastEventTarget);
        }
    }

    /** The last published snapshot as of now, changed by {@code change}; closed if a cache froze. */
    private GateInput lastSnapshotNow(java.util.function.UnaryOperator<GateInput> change) {
        return state.closedIfFrozen(change.apply(state.currentInput().at(lifecycle.now())));
    }

    /**
     * The OperatorCondition already says True: this process published it, the write went through,
     * and the watched copy still carries it. After someone emptied or edited it (OLM recreating it,
     * an admin, a restore after an outage) writing True again is an opening like any other and is
     * confirmed on fresh reads: the caches may not yet hold what changed meanwhile.
     */
    private boolean openInOperatorCondition() {
        return state.open() && !publisher.operatorConditionWritePending() && publisher.operatorConditionUnchanged();
    }

    /**
     * Like {@link #evaluate}, but only if nothing was published since {@code seenPublications}: a
     * snapshot read outside the reconciler must not overwrite a newer decision of the reconciler.
     */
    public synchronized GateDecision evaluateIfQuiet(long seenPublications, GateInput input) {
        if (state.publications() != seenPublications) {
            return null;
        }
        return evaluate(input, null);
    }

    public synchronized long publications() {
        return state.publications();
    }

    private GateDecision decide(GateInput input) {
        long started = System.nanoTime();
        var assessment = GateEvaluator.assess(input);
        metrics.evaluationTimer().record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        return state.decide(assessment, settings.gate().stabilizationWindow(), input.now());
    }

    private Verdict publish(GateInput input, GateDecision decision, HasMetadata eventTarget) {
        if (eventTarget != null) {
            lastEventTarget = eventTarget;
        }
        try (var log = LogContext.of(input, decision)) {
            GateState.Publication p = state.publish(input, decision);
            publisher.publish(input, decision, p, eventTarget);
            return new Verdict(input, decision, p.conditions());
        }
    }

    /** The current decision with its evidence; null before the first decision. */
    public synchronized GateExplanation explain() {
        return state.explain(settings.gate().stabilizationWindow());
    }

    public GateDecision current() {
        return state.current();
    }

    public Instant currentSince() {
        return state.currentSince();
    }

    public GateInput currentInput() {
        return state.currentInput();
    }
}
