package io.kubevirt.hco.reconciler;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.JsonPatches;
import io.kubevirt.hco.components.UnappliedFields;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.Condition;
import io.kubevirt.hco.core.ConditionTypes;
import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.core.GateInput;
import io.kubevirt.hco.core.StackConditions;
import io.kubevirt.hco.gate.GatePublisher;
import io.kubevirt.hco.gate.GateService;
import io.kubevirt.hco.lifecycle.ProcessLifecycle;
import io.kubevirt.hco.observability.GateMetrics;
import io.kubevirt.hco.observability.LogContext;
import io.kubevirt.hco.snapshot.ComponentInstallation;
import io.kubevirt.hco.snapshot.StackSnapshots;

/**
 * Reconciles the HyperConverged singleton: takes a snapshot, applies the component specs it
 * implies, decides, and writes the status. Woken by the HyperConverged, by any component CR and
 * CRD, by OLM's OperatorCondition, by the stabilization timer, and at least every reassert-interval.
 */
// Its permissions are src/main/kubernetes/kubernetes.yml (one commented rule per thing it does),
// proven necessary rule by rule and verb by verb by RbacLeastPrivilegeIT.
// the SDK's own periodic reconcile (also what it falls back to once retries are exhausted): the
// unit must be given, its default is hours; hco.gate.reassert-interval schedules the usual one
@ControllerConfiguration(name = HyperConvergedReconciler.NAME, finalizerName = HyperConvergedReconciler.FINALIZER,
        generationAwareEventProcessing = false,
        informer = @io.javaoperatorsdk.operator.api.config.informer.Informer(onAddFilter = StackAppearing.class,
                onUpdateFilter = SpecOrIntentChanged.class),
        maxReconciliationInterval = @MaxReconciliationInterval(interval = 60, timeUnit = TimeUnit.SECONDS))
public class HyperConvergedReconciler implements Reconciler<HyperConverged>, Cleaner<HyperConverged> {

    public static final String NAME = "hyperconverged";
    /** Upstream HCO's finalizer: an adopted HyperConverged already carries it. */
    public static final String FINALIZER = "kubevirt.io/hyperconverged";
    private static final Logger LOG = Logger.getLogger(HyperConvergedReconciler.class);
    /** After recording a version, look again at once: the record is now in the cluster. */
    static final Duration AFTER_RECORD = Duration.ofMillis(200);
    static final Duration MIN_RECHECK = Duration.ofMillis(1);

    @Inject
    OperatorSettings settings;

    @Inject
    ProcessLifecycle lifecycle;

    @Inject
    GateService gate;

    @Inject
    GatePublisher publisher;

    @Inject
    StackSnapshots snapshots;

    @Inject
    HyperConvergedStatusWriter statusWriter;

    @Inject
    SpecApplication application;

    @Inject
    StackInformers informers;

    @Inject
    StackDeletion deletion;

    @Inject
    GateMetrics metrics;

    @Override
    public List<EventSource<?, HyperConverged>> prepareEventSources(EventSourceContext<HyperConverged> context) {
        snapshots.followPrimaryCache(context.getPrimaryCache());
        return informers.eventSources(context);
    }

    @Override
    public UpdateControl<HyperConverged> reconcile(HyperConverged hco, Context<HyperConverged> context) {
        if (!lifecycle.leader()) {
            // leadership was just lost and the process is on its way out: write nothing more
            return UpdateControl.noUpdate();
        }
        if (!isSingleton(hco)) {
            rejectStray(context, hco);
            return UpdateControl.noUpdate();
        }
        long started = System.nanoTime();
        long eventArrived = informers.takeComponentEvent();
        if (eventArrived != 0) {
            metrics.phaseDone("dispatch", eventArrived);
        }
        LegacyFinalizer.replace(hco, context);
        SpecApplication.Pass pass = application.apply(hco, context);
        started = metrics.phaseDone("apply", started);
        // before the snapshot: an event landing while it is taken counts as a change
        List<Object> revisions = informers.revisions(context, hco);
        GateInput input = snapshots.snapshot(StackSnapshots.observe(hco, pass.applied), d -> informers.component(context, d),
                pass.invalid == null ? pass.desired : Map.of(), pass.error(), pass.installed);
        started = metrics.phaseDone("snapshot", started);
        var cached = new StackSnapshots.CachedView(input.now(), hco, d -> informers.component(context, d));
        var verdict = gate.verdict(input, hco,
                () -> snapshots.freshSnapshot(pass.applied, pass.desired, pass.installed, cached),
                () -> revisions.equals(informers.revisions(context, null)));
        GateDecision decision = verdict.decision();
        started = metrics.phaseDone("decide", started);

        String recorded = StackSnapshots.recordedVersion(hco);
        boolean recordNow = pass.failure == null && decision.assessment().componentsConverged()
                && lifecycle.operatorVersion() != null && !Objects.equals(recorded, lifecycle.operatorVersion());
        if (recordNow) {
            try (var log = LogContext.of(input, decision)) {
                LOG.infof("every component converged: recording operator version %s (was %s)",
                        lifecycle.operatorVersion(), recorded);
            }
            recorded = lifecycle.operatorVersion();
        }
        Long observedGeneration = pass.applied != null ? pass.applied
                : hco.getStatus() == null ? null : hco.getStatus().observedGeneration;
        List<Condition> conditions = StackConditions.withSpecNotes(verdict.conditions(), specNotes(hco));
        statusWriter.write(context, hco, statusWriter.desired(hco, conditions, recorded, observedGeneration,
                HyperConvergedStatusWriter.blockers(decision),
                pass.resolved ? ComponentInstallation.partOfStack(pass.installed) : null, settings.namespace()));
        metrics.phaseDone("status", started);
        if (pass.failure != null) {
            throw pass.failure;
        }
        Duration untilOpening = decision.recheckAfter() != null ? untilRecheck(decision, verdict.input()) : null;
        snapshots.openingExpectedIn(untilOpening, pass.installed);
        return UpdateControl.<HyperConverged> noUpdate().rescheduleAfter(nextPass(recordNow, untilOpening, pass));
    }

    /**
     * Upstream's TaintedConfiguration while any JSON patch annotation is present (and the metric of
     * their operations): a stack configured past the API is not a supported one. UnappliedFields
     * while the spec sets upstream fields this operator accepts but does not apply.
     */
    private StackConditions.SpecNotes specNotes(HyperConverged hco) {
        Map<String, Integer> operations = JsonPatches.operationCounts(ComponentCatalog.ALL, hco.getMetadata().getAnnotations());
        metrics.unsafeModifications(operations);
        Map<String, String> unapplied = new LinkedHashMap<>();
        if (hco.getSpec() != null) {
            UnappliedFields.setIn(hco.getSpec()).forEach(f -> unapplied.put(f, UnappliedFields.FIELDS.get(f)));
        }
        return new StackConditions.SpecNotes(List.copyOf(operations.keySet()), unapplied);
    }

    /** When to come back: the earliest of what this pass waits for, and at most the reassert interval. */
    private Duration nextPass(boolean recorded, Duration untilOpening, SpecApplication.Pass pass) {
        Duration next = recorded ? AFTER_RECORD : untilOpening;
        if (pass.held != null) {
            next = earliest(next, pass.held);
        }
        if (publisher.operatorConditionWritePending()) {
            next = earliest(next, settings.gate().writeRetryInterval());
        }
        // a quiet stack sends no event for hours: the decision is re-taken (and re-asserted in the
        // OperatorCondition) at least this often, whatever happens
        return earliest(next, settings.gate().reassertInterval());
    }

    private static Duration earliest(Duration a, Duration b) {
        return a == null || b.compareTo(a) < 0 ? b : a;
    }

    /**
     * The window ends at a fixed instant: this pass's writes took time after the decision, so the
     * timer counts from the decision, not from now (the bench saw every opening late by the writes
     * of the pass that found the stack converged). The pass comes {@link GateService#PREPARE_LEAD}
     * early and prepares the opening, which is published at the instant itself (was: 1 ms late, and
     * the whole pass after it).
     */
    private Duration untilRecheck(GateDecision decision, GateInput input) {
        Duration spent = Duration.between(input.now(), lifecycle.now());
        Duration left = decision.recheckAfter().minus(GateService.PREPARE_LEAD).minus(spent);
        return left.compareTo(MIN_RECHECK) < 0 ? MIN_RECHECK : left;
    }

    @Override
    public DeleteControl cleanup(HyperConverged hco, Context<HyperConverged> context) {
        if (!lifecycle.leader()) {
            return DeleteControl.noFinalizerRemoval();
        }
        return isSingleton(hco) ? deletion.cleanup(hco, context) : DeleteControl.defaultDelete();
    }

    private boolean isSingleton(HyperConverged hco) {
        return HyperConverged.SINGLETON_NAME.equals(hco.getMetadata().getName())
                && settings.namespace().equals(hco.getMetadata().getNamespace());
    }

    /** Any other HyperConverged is refused in its status, and nothing is created for it. */
    private void rejectStray(Context<HyperConverged> context, HyperConverged hco) {
        String message = "only the HyperConverged named " + HyperConverged.SINGLETON_NAME + " in namespace "
                + settings.namespace() + " is reconciled; " + hco.getMetadata().getNamespace() + "/"
                + hco.getMetadata().getName() + " is ignored and nothing was created for it: delete it, and create "
                + settings.namespace() + "/" + HyperConverged.SINGLETON_NAME + " instead";
        LOG.warnf("rejected HyperConverged %s/%s: %s", hco.getMetadata().getNamespace(), hco.getMetadata().getName(),
                message);
        Condition rejected = new Condition(ConditionTypes.RECONCILE_COMPLETE, Condition.FALSE, "InvalidRequest", message,
                null, null);
        statusWriter.write(context, hco, statusWriter.desired(hco, List.of(rejected), null, null, List.of(), null,
                settings.namespace()));
    }
}
