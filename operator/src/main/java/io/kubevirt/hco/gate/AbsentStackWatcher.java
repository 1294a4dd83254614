package io.kubevirt.hco.gate;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.core.GateInput;
import io.kubevirt.hco.core.HyperConvergedObservation;
import io.kubevirt.hco.snapshot.StackSnapshots;
import io.kubevirt.hco.support.ChangeHandler;
import io.kubevirt.hco.support.DaemonTimer;

/**
 * The gate while no HyperConverged exists. No reconcile runs then (there is no primary), yet OLM
 * must read something true: "nothing installed" (open) or "component CRs left without their
 * HyperConverged" (closed). Checked with fresh reads every idle-poll-interval, whenever OLM's
 * OperatorCondition changes, when this process becomes the leader, when a stabilization window
 * ends and shortly after a check that raced another decision, by the leader only; a check that
 * fails publishes a closed gate.
 */
@ApplicationScoped
public class AbsentStackWatcher {

    private static final Logger LOG = Logger.getLogger(AbsentStackWatcher.class);

    @Inject
    KubernetesClient client;

    @Inject
    OperatorSettings settings;

    @Inject
    GateService gate;

    @Inject
    io.kubevirt.hco.lifecycle.ProcessLifecycle lifecycle;

    @Inject
    StackSnapshots snapshots;

    @Inject
    OperatorConditionWriter writer;

    @Inject
    InformerStopGuard informerStopGuard;

    static final Duration RACED_RECHECK = Duration.ofMillis(200);

    private ScheduledExecutorService timer;
    private SharedIndexInformer<GenericKubernetesResource> operatorConditionInformer;

    void start() {
        timer = DaemonTimer.named("hco-absent-stack");
        long every = settings.gate().idlePollInterval().toMillis();
        timer.scheduleWithFixedDelay(this::checkSafely, Math.min(every, 1000), every, TimeUnit.MILLISECONDS);
        writer.name().ifPresent(this::watchOperatorCondition);
        // a check made before this process led did nothing: the next would be a whole poll later
        lifecycle.onLeadership(this::operatorConditionChanged);
    }

    /**
     * Without a HyperConverged no reconcile runs, so the OperatorCondition is watched here too: OLM
     * recreating it empty (read as upgradeable) is answered within one watch delivery, not a poll.
     */
    private void watchOperatorCondition(String name) {
        operatorConditionInformer = client.genericKubernetesResources(OperatorConditionWriter.DEFINITION)
                .inNamespace(settings.namespace()).withField("metadata.name", name)
                .inform(ChangeHandler.<GenericKubernetesResource> of(oc -> {
                    if (name.equals(oc.getMetadata().getName()) && !writer.saysWhatWasWritten(oc)) {
                        operatorConditionChanged();
                    }
                }, gone -> operatorConditionChanged()));
        // not one of JOSDK's: its stop is not reported to the guard unless asked for
        var informer = operatorConditionInformer;
        informer.stopped().whenComplete((ignored, error) -> informerStopGuard.onStop(informer, error));
    }

    void stop() {
        if (operatorConditionInformer != null) {
            operatorConditionInformer.close();
        }
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    private void checkSafely() {
        long seen = gate.publications();
        try {
            check();
        } catch (RuntimeException e) {
            if (!lifecycle.leader()) {
                return;
            }
            // what OLM reads must not stay True on a check that could not be made
            LOG.warnf("absent-stack check failed (retried every %s): %s", settings.gate().idlePollInterval(),
                    e.getMessage());
            gate.evaluateIfQuiet(seen, snapshots.snapshot(HyperConvergedObservation.absent(), d -> null, null,
                    "reading the HyperConverged and the component CRs failed: " + e.getMessage()));
        }
    }

    /** OLM's OperatorCondition changed (deleted, recreated empty, edited): check at once, not at the next poll. */
    public void operatorConditionChanged() {
        if (timer != null && !timer.isShutdown()) {
            timer.execute(this::checkSafely);
        }
    }

    /** Evaluates the gate when the HyperConverged is absent; returns whether it did. */
    public boolean check() {
        if (!lifecycle.leader()) {
            return false;
        }
        long seen = gate.publications();
        // a HyperConverged in the reconciler's cache is the reconciler's to decide on: no read (the
        // leader polled it every idle-poll-interval for as long as the stack was installed)
        if (snapshots.hyperConvergedCached() || snapshots.freshHyperConverged() != null) {
            return false;
        }
        var fresh = snapshots.freshComponents();
        // every component was just read fresh from the API server: that is a full pass of this process
        lifecycle.fullReconcileDone();
        GateInput input = snapshots.snapshot(HyperConvergedObservation.absent(), fresh::get, null, null);
        GateDecision decision = gate.evaluateIfQuiet(seen, input);
        if (decision == null) {
            // another decision was published while this one was being taken (the start-up write,
            // a reconcile that just ended): this check's reads may be stale, so look again soon
            // rather than at the next poll
            recheckAfter(RACED_RECHECK);
        } else if (decision.recheckAfter() != null) {
            recheckAfter(decision.recheckAfter());
        }
        return decision != null;
    }

    /**
     * The window of an open "nothing installed" ends at a fixed instant: check again then, not at
     * the next poll (which may be many seconds later, and readiness gate mode waits for it).
     */
    private void recheckAfter(Duration delay) {
        if (timer != null && !timer.isShutdown()) {
            timer.schedule(this::checkSafely, delay.toMillis() + 5, TimeUnit.MILLISECONDS);
        }
    }
}
