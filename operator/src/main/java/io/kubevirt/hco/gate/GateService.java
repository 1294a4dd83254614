package io.kubevirt.hco.gate;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.core.GateEvaluator;
import io.kubevirt.hco.core.GateExplanation;
import io.kubevirt.hco.core.GateInput;
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

    private final GateState state = new GateState();

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
        input = state.closedIfFrozen(input);
        GateDecision decision = decide(input);
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
            decision = decide(input);
        }
        return publish(input, decision, eventTarget);
    }

    /**
     * An informer stopped: the caches that decisions are read from no longer follow the cluster.
     * Closes the gate now (a decision already published may be True), and keeps every later
     * decision of this process closed.
     */
    public synchronized void cacheFrozen(String why) {
        state.freeze(why);
        if (state.currentInput() != null) {
            GateInput input = state.closedIfFrozen(state.currentInput().at(lifecycle.now()));
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
            GateInput input = state.closedIfFrozen(state.currentInput().at(lifecycle.now()).withHyperConverged(hco));
            publish(input, decide(input), null);
        }
    }

    /** The OperatorCondition (as far as this process knows) already says True. */
    private boolean openInOperatorCondition() {
        return state.open() && !publisher.operatorConditionWritePending();
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
