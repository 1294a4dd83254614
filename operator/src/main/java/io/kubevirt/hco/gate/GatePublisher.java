package io.kubevirt.hco.gate;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.core.GateInput;
import io.kubevirt.hco.core.GateReason;
import io.kubevirt.hco.core.GateState;
import io.kubevirt.hco.lifecycle.ProcessLifecycle;
import io.kubevirt.hco.observability.GateEvents;
import io.kubevirt.hco.observability.GateMetrics;

/**
 * Tells the world about a decision: OLM's OperatorCondition (the leader only, and True only once
 * this process has held the gate), the metrics, and an Event on each transition.
 */
@ApplicationScoped
public class GatePublisher {

    private static final Logger LOG = Logger.getLogger(GatePublisher.class);

    @Inject
    OperatorConditionWriter writer;

    @Inject
    GateMetrics metrics;

    @Inject
    GateEvents events;

    @Inject
    ProcessLifecycle lifecycle;

    private volatile boolean held;
    /**
     * The current decision is not in the OperatorCondition yet (its write failed, or Initializing
     * went first). Without another event nothing would evaluate again, and OLM would keep reading
     * the previous value, possibly True: the reconciler comes back after the write-retry interval.
     */
    private volatile boolean writePending;

    /**
     * Closes the gate before anything else is written. Returns whether it succeeded; until it has,
     * readiness stays DOWN and no True is ever written.
     */
    public synchronized boolean holdAtStartup() {
        if (held) {
            return true;
        }
        try {
            writer.write(false, GateReason.Initializing.name(), "operator version " + lifecycle.operatorVersion()
                    + " is starting; the gate stays closed until its first full reconcile");
            held = true;
            LOG.infof("gate held: Upgradeable=False/Initializing written%s",
                    writer.enabled() ? " to OperatorCondition " + writer.name().orElseThrow() : " (no OLM: no-op)");
        } catch (RuntimeException e) {
            metrics.operatorConditionWriteFailed();
            LOG.warnf("could not hold the gate at start-up yet: %s", e.getMessage());
        }
        return held;
    }

    public boolean held() {
        return held;
    }

    public boolean operatorConditionWritePending() {
        return writePending;
    }

    /** OLM's OperatorCondition, as last watched, carries what was last written (always, without OLM). */
    public boolean operatorConditionUnchanged() {
        return writer.watchedCopySaysWhatWasWritten();
    }

    /**
     * What OLM reads goes first, the Event follows (bench: one API round trip less between a
     * component's change and OLM seeing it). A failed write is counted and retried by the caller's
     * next evaluation; it never opens anything.
     */
    synchronized void publish(GateInput input, GateDecision decision, GateState.Publication p, HasMetadata eventTarget) {
        metrics.record(input, decision, p.conditions());
        if (p.transition()) {
            metrics.transition(decision.reason(), decision.upgradeable());
        }
        if (p.closedFor() != null) {
            metrics.closedFor(p.previous().reason(), p.closedFor());
        }
        p.convergedAfter().forEach(metrics::componentConverged);
        if (p.upgradeCompleted() != null) {
            metrics.upgradeCompleted(p.upgradeCompleted().phase(), p.upgradeCompleted().took());
        }
        long started = System.nanoTime();
        writeOperatorCondition(decision);
        metrics.phaseDone("operator-condition", started);
        if (p.transition()) {
            events.transition(p.previous(), decision, eventTarget);
        }
    }

    private void writeOperatorCondition(GateDecision decision) {
        if (!lifecycle.leader()) {
            return;
        }
        try {
            if (decision.upgradeable() && !held) {
                // the first write of a process is always a closing one (the gate's contract in
                // docs/architecture.md: held before anything else); the decision follows next pass
                writer.write(false, GateReason.Initializing.name(),
                        "the gate is being taken by version " + lifecycle.operatorVersion());
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
}
