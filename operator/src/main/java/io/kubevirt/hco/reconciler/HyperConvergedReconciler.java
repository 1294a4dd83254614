package io.kubevirt.hco.reconciler;

import io.kubevirt.hco.snapshot.ComponentInstallation;
import io.kubevirt.hco.snapshot.StackSnapshots;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.FieldSelector;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.GroupVersionKindPlural;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.kubevirt.hco.core.ComponentEnablement;
import io.kubevirt.hco.core.ComponentEnablement.Resolution;
import io.kubevirt.hco.api.v1beta1.GateBlocker;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.HyperConvergedStatus;
import io.kubevirt.hco.api.v1beta1.StatusCondition;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.fabric8.kubernetes.api.model.Node;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.CrdSchemaPruning;
import io.kubevirt.hco.components.InvalidSpecException;
import io.kubevirt.hco.components.JsonPatches;
import io.kubevirt.hco.components.SpecContext;
import io.kubevirt.hco.components.UnappliedFields;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.core.GateInput;
import io.kubevirt.hco.observability.LogContext;
import io.kubevirt.hco.core.StackConditions;
import io.kubevirt.hco.gate.GateService;
import io.kubevirt.hco.gate.OperatorConditionWriter;

/**
 * Reconciles the HyperConverged singleton: applies the component specs it implies, takes the gate
 * decision on the resulting snapshot, and writes status and gate. Woken by the HyperConverged,
 * by any component CR, by OLM's OperatorCondition, by the stabilization timer, and at least every
 * reassert-interval.
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
    /** The SDK's default finalizer, which releases before 2.1 put on the HyperConverged: replaced on sight. */
    static final String LEGACY_FINALIZER = "hyperconvergeds.hco.kubevirt.io/finalizer";
    static final String NODES_SOURCE = "nodes";
    /** Upstream's condition for a HyperConverged carrying JSON patch annotations; present only while True. */
    public static final String TAINTED_CONFIGURATION = "TaintedConfiguration";
    /** Present, True, while the spec sets upstream fields this operator accepts but does not apply yet. */
    public static final String UNAPPLIED_FIELDS = "UnappliedFields";
    private static final Logger LOG = Logger.getLogger(HyperConvergedReconciler.class);
    /** After recording a version, look again at once: the record is now in the cluster. */
    static final Duration AFTER_RECORD = Duration.ofMillis(200);
    /**
     * Past the end of the stabilization window before the recheck, so that it finds the window over;
     * a timer firing early only costs one more pass. Was 20 ms: the bench counted it in every opening.
     */
    static final long RECHECK_MARGIN_MS = 5;
    static final Duration MIN_RECHECK = Duration.ofMillis(1);
    static final Duration DELETION_RECHECK = Duration.ofSeconds(2);
    /** A refused deletion (KubeVirt's webhook while VMs exist) waits for the user: retried slowly. */
    static final Duration DELETION_REFUSED_RETRY = Duration.ofSeconds(15);
    /** The blocker reason in the HyperConverged status when a component CR's deletion is refused. */
    public static final String DELETION_REFUSED = "DeletionRefused";

    @Inject
    OperatorSettings settings;

    @Inject
    GateService gate;

    @Inject
    io.kubevirt.hco.lifecycle.ProcessLifecycle lifecycle;

    @Inject
    io.kubevirt.hco.gate.GatePublisher publisher;

    @Inject
    ComponentWriter componentWriter;

    @Inject
    StackSnapshots snapshots;

    @Inject
    HyperConvergedStatusWriter statusWriter;

    @Inject
    OperatorConditionWriter operatorConditionWriter;

    @Inject
    ComponentInstallation installation;

    @Inject
    SpecContexts specContexts;

    @Inject
    io.kubevirt.hco.observability.GateMetrics metrics;

    static final String OPERATOR_CONDITION_SOURCE = "operator-condition";

    @Override
    public List<EventSource<?, HyperConverged>> prepareEventSources(EventSourceContext<HyperConverged> context) {
        String namespace = settings.namespace();
        ResourceID singleton = new ResourceID(HyperConverged.SINGLETON_NAME, namespace);
        List<EventSource<?, HyperConverged>> sources = new ArrayList<>();
        for (ComponentDescriptor d : snapshots.components()) {
            // the component's CRD, by name: its arrival or removal changes what the stack is made of
            var crd = InformerEventSourceConfiguration.from(CustomResourceDefinition.class, HyperConverged.class)
                    .withName(crdSource(d))
                    .withFieldSelector(new FieldSelector(new FieldSelector.Field("metadata.name", d.crdName())))
                    .withGenericFilter(r -> d.crdName().equals(r.getMetadata().getName()))
                    .withSecondaryToPrimaryMapper(r -> Set.of(singleton))
                    // cluster-scoped: not the controller's namespace
                    .withWatchAllNamespaces();
            sources.add(new InformerEventSource<>(crd.build(), context));
        }
        operatorConditionName().ifPresent(name -> sources.add(operatorConditionSource(name, singleton, context)));
        // the node count decides upstream's defaults for a single-node cluster; only a node's arrival,
        // departure or change of role matters (status heartbeats must not wake the reconciler)
        var nodes = InformerEventSourceConfiguration.from(Node.class, HyperConverged.class)
                .withName(NODES_SOURCE)
                .withOnUpdateFilter(WorkerNodes::rolesChanged)
                .withSecondaryToPrimaryMapper(r -> Set.of(singleton))
                .withWatchAllNamespaces();
        sources.add(new InformerEventSource<>(nodes.build(), context));
        return sources;
    }

    private static String crdSource(ComponentDescriptor d) {
        return d.name() + "-crd";
    }

    /**
     * The informer of a component's CR, registered once its CRD is served and the component is part
     * of the stack, removed when its CRD goes away (an informer on a missing type only fails and
     * retries). Only the CR we manage: other objects of these kinds (a cluster may hold many SSPs)
     * must not wake the reconciler nor sit in its cache (bench: 92 reconciles/s at 100 unrelated
     * writes/s before this). The field selector filters on the server; the name filter covers API
     * servers that ignore it (the test server).
     */
    private void syncComponentSources(Context<HyperConverged> context, Map<ComponentDescriptor, Resolution> installed) {
        var retriever = context.eventSourceRetriever();
        ResourceID singleton = new ResourceID(HyperConverged.SINGLETON_NAME, settings.namespace());
        for (var e : installed.entrySet()) {
            ComponentDescriptor d = e.getKey();
            boolean registered = componentSource(context, d) != null;
            if (e.getValue().managed() && !registered) {
                var config = InformerEventSourceConfiguration
                        .from(GroupVersionKindPlural.gvkWithPlural(new GroupVersionKind(d.group(), d.version(), d.kind()),
                                d.plural()), HyperConverged.class)
                        .withName(d.name())
                        .withFieldSelector(new FieldSelector(new FieldSelector.Field("metadata.name", d.crName())))
                        .withGenericFilter(r -> d.crName().equals(r.getMetadata().getName()))
                        .withSecondaryToPrimaryMapper(r -> Set.of(singleton));
                config = d.namespaced() ? config.withNamespaces(settings.namespace()) : config.withWatchAllNamespaces();
                retriever.dynamicallyRegisterEventSource(new InformerEventSource<>(config.build(),
                        retriever.eventSourceContextForDynamicRegistration()));
                LOG.infof("%s is part of the stack: watching its CR %s", d.name(), d.crName());
            } else if (!e.getValue().managed() && registered) {
                retriever.dynamicallyDeRegisterEventSource(d.name());
                LOG.warnf("%s: %s", d.name(), e.getValue().message());
            }
        }
    }

    @SuppressWarnings("unchecked")
    private InformerEventSource<GenericKubernetesResource, HyperConverged> componentSource(Context<HyperConverged> context,
            ComponentDescriptor d) {
        try {
            return (InformerEventSource<GenericKubernetesResource, HyperConverged>) context.eventSourceRetriever()
                    .getEventSourceFor(GenericKubernetesResource.class, d.name());
        } catch (RuntimeException notRegistered) {
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private CustomResourceDefinition cachedCrd(Context<HyperConverged> context, ComponentDescriptor d) {
        var source = (InformerEventSource<CustomResourceDefinition, HyperConverged>) context.eventSourceRetriever()
                .getEventSourceFor(CustomResourceDefinition.class, crdSource(d));
        return source.get(new ResourceID(d.crdName())).orElse(null);
    }

    /** The components the status lists as part of the stack: installed ones and those whose CRD went missing. */
    private static List<ComponentDescriptor> partOfStack(Map<ComponentDescriptor, Resolution> installed) {
        return installed.entrySet().stream()
                .filter(e -> e.getValue().state() != ComponentEnablement.State.NOT_INSTALLED).map(Map.Entry::getKey)
                .toList();
    }

    /**
     * OLM's OperatorCondition wakes the reconciler when it is deleted, recreated (empty: OLM reads
     * that as upgradeable) or edited into something this process did not write, so the decision is
     * re-asserted within one watch delivery. Our own writes, and OLM's copies to the status, do not.
     */
    private InformerEventSource<GenericKubernetesResource, HyperConverged> operatorConditionSource(String name,
            ResourceID singleton, EventSourceContext<HyperConverged> context) {
        var config = InformerEventSourceConfiguration
                .from(GroupVersionKindPlural.gvkWithPlural(new GroupVersionKind("operators.coreos.com", "v2",
                        OperatorConditionWriter.KIND), "operatorconditions"), HyperConverged.class)
                .withName(OPERATOR_CONDITION_SOURCE)
                .withNamespaces(settings.namespace())
                .withFieldSelector(new FieldSelector(new FieldSelector.Field("metadata.name", name)))
                .withGenericFilter(r -> name.equals(r.getMetadata().getName()))
                .withOnAddFilter(r -> !operatorConditionWriter.saysWhatWasWritten(r))
                .withOnUpdateFilter((now, before) -> !operatorConditionWriter.saysWhatWasWritten(now))
                .withSecondaryToPrimaryMapper(r -> Set.of(singleton));
        return new InformerEventSource<>(config.build(), context);
    }

    private java.util.Optional<String> operatorConditionName() {
        return settings.operatorConditionName().filter(n -> !n.isBlank());
    }

    @Override
    public UpdateControl<HyperConverged> reconcile(HyperConverged hco, Context<HyperConverged> context) {
        if (!lifecycle.leader()) {
            // leadership was just lost and the process is on its way out: write nothing more
            return UpdateControl.noUpdate();
        }
        if (!isSingleton(hco)) {
            rejectInvalid(context, hco);
            return UpdateControl.noUpdate();
        }
        String namespace = settings.namespace();
        RuntimeException failure = null;
        Long applied = null;
        Map<ComponentDescriptor, Map<String, Object>> desired = new LinkedHashMap<>();
        Map<ComponentDescriptor, Resolution> installed = ComponentInstallation.allEnabled();
        boolean resolved = false;
        String invalid = null;
        String misconfigured = null;
        Duration held = null;
        replaceLegacyFinalizer(hco, context);
        try {
            installed = installation.resolve(hco, d -> cachedCrd(context, d));
            resolved = true;
            syncComponentSources(context, installed);
            SpecContext specContext = specContexts.of(hco, lifecycle.operatorVersion(), workerNodes(context),
                    partOfStack(installed).stream().map(ComponentDescriptor::name).collect(java.util.stream.Collectors.toSet()));
            for (ComponentDescriptor d : snapshots.components()) {
                if (installed.get(d).managed()) {
                    try {
                        desired.put(d, declaredOnly(d, d.desiredSpec(hco.getSpec(), specContext), cachedCrd(context, d)));
                    } catch (InvalidSpecException e) {
                        // the user's input cannot be applied: said in the status, component CRs left as
                        // they are, nothing retried until the HyperConverged changes
                        invalid = invalid == null ? e.getMessage() : invalid + "; " + e.getMessage();
                    }
                }
            }
            if (invalid == null) {
                for (ComponentDescriptor d : desired.keySet()) {
                    try (var log = LogContext.component(d.name(), hco.getMetadata().getGeneration())) {
                        componentWriter.apply(d, cached(context, d), desired.get(d), namespace, owner());
                    }
                }
                held = componentWriter.takeHeldWrites();
                applied = held == null ? hco.getMetadata().getGeneration() : null;
            } else {
                LOG.warnf("the HyperConverged cannot be applied: %s", invalid);
            }
            lifecycle.fullReconcileDone();
        } catch (ComponentInstallation.InvalidSetting e) {
            // not retried: the environment does not change under a running process
            misconfigured = e.getMessage();
            LOG.errorf("the operator's configuration is invalid: %s", misconfigured);
        } catch (RuntimeException e) {
            failure = e;
            LOG.warnf("applying component specs failed: %s", e.getMessage());
        }
        String error = misconfigured != null ? "the operator's configuration is invalid: " + misconfigured
                : failure != null ? "applying component specs failed: " + failure.getMessage()
                : invalid != null ? "the HyperConverged cannot be applied: " + invalid : null;
        GateInput input = snapshots.snapshot(StackSnapshots.observe(hco, applied), d -> cached(context, d),
                invalid == null ? desired : Map.of(), error, installed);
        Long appliedGeneration = applied;
        Map<ComponentDescriptor, Resolution> stack = installed;
        GateDecision decision = gate.evaluate(input, hco,
                () -> snapshots.freshSnapshot(appliedGeneration, desired, stack));

        String recorded = StackSnapshots.recordedVersion(hco);
        boolean recordNow = failure == null && decision.assessment().componentsConverged()
                && lifecycle.operatorVersion() != null && !Objects.equals(recorded, lifecycle.operatorVersion());
        if (recordNow) {
            try (var log = LogContext.of(input, decision)) {
                LOG.infof("every component converged: recording operator version %s (was %s)", lifecycle.operatorVersion(),
                        recorded);
            }
            recorded = lifecycle.operatorVersion();
        }
        Long observedGeneration = applied != null ? applied
                : hco.getStatus() == null ? null : hco.getStatus().observedGeneration;
        HyperConvergedStatus status = statusWriter.desired(hco, withTaint(StackConditions.summarize(input, decision), hco),
                recorded, observedGeneration, blockers(decision), resolved ? partOfStack(installed) : null, namespace);
        statusWriter.write(context, hco, status);
        if (failure != null) {
            throw failure;
        }
        Duration next = recordNow ? AFTER_RECORD
                : decision.recheckAfter() != null ? untilRecheck(decision, input) : null;
        if (held != null) {
            next = earliest(next, held);
        }
        if (publisher.operatorConditionWritePending()) {
            next = earliest(next, settings.gate().writeRetryInterval());
        }
        // a quiet stack sends no event for hours: the decision is re-taken (and re-asserted in the
        // OperatorCondition) at least this often, whatever happens
        next = earliest(next, settings.gate().reassertInterval());
        return UpdateControl.<HyperConverged> noUpdate().rescheduleAfter(next);
    }

    /**
     * Upstream's TaintedConfiguration condition while any JSON patch annotation is present (and the
     * metric of their operations): a stack configured past the API is not a supported one.
     */
    private List<io.kubevirt.hco.core.Condition> withTaint(List<io.kubevirt.hco.core.Condition> conditions, HyperConverged hco) {
        Map<String, String> annotations = hco.getMetadata().getAnnotations();
        Map<String, Integer> operations = JsonPatches.operationCounts(ComponentCatalog.ALL, annotations);
        metrics.unsafeModifications(operations);
        List<String> present = List.copyOf(operations.keySet());
        List<io.kubevirt.hco.core.Condition> out = new ArrayList<>(conditions);
        List<String> unapplied = hco.getSpec() == null ? List.of() : UnappliedFields.setIn(hco.getSpec());
        if (!unapplied.isEmpty()) {
            out.add(new io.kubevirt.hco.core.Condition(UNAPPLIED_FIELDS, io.kubevirt.hco.core.Condition.TRUE,
                    "AcceptedNotApplied", "accepted but not applied by this operator: " + unapplied.stream()
                            .map(f -> f + " (" + UnappliedFields.FIELDS.get(f) + ")").collect(java.util.stream.Collectors.joining("; ")),
                    null, null));
        }
        if (present.isEmpty()) {
            return out;
        }
        out.add(new io.kubevirt.hco.core.Condition(TAINTED_CONFIGURATION, io.kubevirt.hco.core.Condition.TRUE,
                "UnsupportedFeatureAnnotation", "Unsupported feature was activated via an HCO annotation: "
                        + String.join(", ", present), null, null));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static int workerNodes(Context<HyperConverged> context) {
        try {
            var source = (InformerEventSource<Node, HyperConverged>) context.eventSourceRetriever()
                    .getEventSourceFor(Node.class, NODES_SOURCE);
            return WorkerNodes.count(source.list().toList());
        } catch (RuntimeException notReady) {
            return 0;
        }
    }

    /**
     * The spec without the fields the installed component CRD does not declare (an older component
     * release): server-side apply would refuse the whole write. Logged once per set of fields;
     * with {@code HCO_FIELD_VALIDATION=Strict} nothing is dropped and the write is refused instead.
     */
    private Map<String, Object> declaredOnly(ComponentDescriptor d, Map<String, Object> spec, CustomResourceDefinition crd) {
        if (crd == null || "Strict".equalsIgnoreCase(settings.components().fieldValidation())) {
            return spec;
        }
        Map<String, Object> schema = specSchema(d, crd);
        List<String> dropped = new ArrayList<>();
        Map<String, Object> out = CrdSchemaPruning.prune(spec, schema, dropped);
        if (!dropped.isEmpty() && !dropped.equals(droppedFields.put(d.name(), dropped))) {
            LOG.warnf("%s: the installed CRD %s does not declare spec%s; left out of the write (an older %s release?)",
                    d.name(), d.crdName(), String.join(", spec", dropped), d.kind());
        }
        return out;
    }

    private final Map<String, List<String>> droppedFields = new java.util.concurrent.ConcurrentHashMap<>();

    private record SpecSchema(String resourceVersion, Map<String, Object> schema) {
    }

    /** Per component: its CRD's spec schema as JSON, converted once per CRD resourceVersion (KubeVirt's is ~460 KB). */
    private final Map<String, SpecSchema> specSchemas = new java.util.concurrent.ConcurrentHashMap<>();

    private Map<String, Object> specSchema(ComponentDescriptor d, CustomResourceDefinition crd) {
        String rv = crd.getMetadata().getResourceVersion();
        SpecSchema cached = specSchemas.get(d.name());
        if (cached != null && rv != null && rv.equals(cached.resourceVersion())) {
            return cached.schema();
        }
        Map<String, Object> schema = crd.getSpec().getVersions().stream().filter(v -> d.version().equals(v.getName()))
                .findFirst().filter(v -> v.getSchema() != null && v.getSchema().getOpenAPIV3Schema() != null
                        && v.getSchema().getOpenAPIV3Schema().getProperties() != null)
                .map(v -> v.getSchema().getOpenAPIV3Schema().getProperties().get("spec"))
                .map(io.kubevirt.hco.components.SpecJson::toMap).orElse(null);
        specSchemas.put(d.name(), new SpecSchema(rv, schema));
        return schema;
    }

    /** Releases before 2.1 used the SDK's default finalizer: dropped once the upstream one is on. */
    private static void replaceLegacyFinalizer(HyperConverged hco, Context<HyperConverged> context) {
        List<String> finalizers = hco.getMetadata().getFinalizers();
        if (finalizers == null || !finalizers.contains(LEGACY_FINALIZER) || !finalizers.contains(FINALIZER)) {
            return;
        }
        try {
            context.getClient().resource(hco).edit(h -> {
                h.getMetadata().getFinalizers().remove(LEGACY_FINALIZER);
                return h;
            });
            LOG.infof("replaced the finalizer %s with %s", LEGACY_FINALIZER, FINALIZER);
        } catch (KubernetesClientException e) {
            LOG.warnf("removing the legacy finalizer %s failed (%s); retried next time", LEGACY_FINALIZER, e.getMessage());
        }
    }

    private static Duration earliest(Duration a, Duration b) {
        return a == null || b.compareTo(a) < 0 ? b : a;
    }

    /**
     * The window ends at a fixed instant: this pass's writes took time after the decision, so the
     * timer counts from the decision, not from now (the bench saw every opening late by the writes
     * of the pass that found the stack converged).
     */
    private Duration untilRecheck(GateDecision decision, GateInput input) {
        Duration spent = Duration.between(input.now(), lifecycle.now());
        Duration left = decision.recheckAfter().plusMillis(RECHECK_MARGIN_MS).minus(spent);
        return left.compareTo(MIN_RECHECK) < 0 ? MIN_RECHECK : left;
    }

    @Override
    public DeleteControl cleanup(HyperConverged hco, Context<HyperConverged> context) {
        if (!lifecycle.leader()) {
            return DeleteControl.noFinalizerRemoval();
        }
        if (!isSingleton(hco)) {
            return DeleteControl.defaultDelete();
        }
        // the gate closes first (the HyperConverged is being deleted), whatever the deletions do. This
        // pass looks at every component, so it counts as this process's full pass: a process started
        // while the stack is Terminating says "being deleted", not "Initializing", for as long as it is
        lifecycle.fullReconcileDone();
        // a process started while the stack is Terminating watches the components' CRs first: what
        // it does not see, it could not delete
        Map<ComponentDescriptor, Resolution> installed = ComponentInstallation.allEnabled();
        boolean resolved = false;
        String error = null;
        try {
            installed = installation.resolve(hco, d -> cachedCrd(context, d));
            resolved = true;
            syncComponentSources(context, installed);
        } catch (RuntimeException e) {
            error = "reading which components are installed failed: " + e.getMessage();
        }
        GateInput input = snapshots.snapshot(StackSnapshots.observe(hco, hco.getMetadata().getGeneration()),
                d -> cached(context, d), null, error, installed);
        GateDecision decision = gate.evaluate(input, hco);
        List<GateBlocker> refused = new ArrayList<>();
        boolean remaining = false;
        for (ComponentDescriptor d : snapshots.components()) {
            if (cached(context, d) == null) {
                continue;
            }
            remaining = true;
            try {
                componentWriter.delete(d, settings.namespace());
            } catch (KubernetesClientException e) {
                String why = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                        : e.getMessage();
                refused.add(new GateBlocker(d.name(), DELETION_REFUSED, "deleting " + d.kind() + " " + d.crName()
                        + " was refused (" + e.getCode() + "): " + why));
            }
        }
        if (!remaining) {
            return DeleteControl.defaultDelete();
        }
        List<GateBlocker> blockers = new ArrayList<>(refused);
        blockers.addAll(blockers(decision));
        statusWriter.write(context, hco, statusWriter.desired(hco, StackConditions.summarize(input, decision),
                StackSnapshots.recordedVersion(hco), hco.getStatus() == null ? null : hco.getStatus().observedGeneration,
                blockers, resolved ? partOfStack(installed) : null, settings.namespace()));
        if (!refused.isEmpty()) {
            LOG.warnf("HyperConverged is being deleted, but %s; retrying every %s", refused.get(0).message,
                    DELETION_REFUSED_RETRY);
            return DeleteControl.noFinalizerRemoval().rescheduleAfter(DELETION_REFUSED_RETRY);
        }
        LOG.infof("HyperConverged is being deleted: waiting for the component CRs to be removed");
        return DeleteControl.noFinalizerRemoval().rescheduleAfter(DELETION_RECHECK);
    }

    private boolean isSingleton(HyperConverged hco) {
        return HyperConverged.SINGLETON_NAME.equals(hco.getMetadata().getName())
                && settings.namespace().equals(hco.getMetadata().getNamespace());
    }

    private String owner() {
        return settings.namespace() + "." + HyperConverged.SINGLETON_NAME;
    }

    private void rejectInvalid(Context<HyperConverged> context, HyperConverged hco) {
        String message = "only the HyperConverged named " + HyperConverged.SINGLETON_NAME + " in namespace "
                + settings.namespace() + " is reconciled; " + hco.getMetadata().getNamespace() + "/"
                + hco.getMetadata().getName() + " is ignored and nothing was created for it: delete it, and create "
                + settings.namespace() + "/" + HyperConverged.SINGLETON_NAME + " instead";
        HyperConvergedStatus status = new HyperConvergedStatus();
        StatusCondition previous = hco.getStatus() == null ? null
                : hco.getStatus().conditions.stream().filter(c -> StackConditions.RECONCILE_COMPLETE.equals(c.type))
                        .findFirst().orElse(null);
        String since = previous != null && "False".equals(previous.status) ? previous.lastTransitionTime
                : java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        status.conditions.add(new StatusCondition(StackConditions.RECONCILE_COMPLETE, "False", "InvalidRequest", message,
                hco.getMetadata().getGeneration(), since));
        LOG.warnf("rejected HyperConverged %s/%s: %s", hco.getMetadata().getNamespace(), hco.getMetadata().getName(),
                message);
        statusWriter.write(context, hco, status);
    }

    /** The component's CR from its informer; null when absent or not watched (not part of the stack). */
    private GenericKubernetesResource cached(Context<HyperConverged> context, ComponentDescriptor d) {
        var source = componentSource(context, d);
        return source == null ? null
                : source.get(new ResourceID(d.crName(), d.namespaced() ? settings.namespace() : null)).orElse(null);
    }

    private static List<GateBlocker> blockers(GateDecision decision) {
        return decision.blockers().stream().map(b -> new GateBlocker(b.subject(), b.reason().name(), b.message()))
                .toList();
    }
}
