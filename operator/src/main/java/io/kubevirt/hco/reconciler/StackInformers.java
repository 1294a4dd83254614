package io.kubevirt.hco.reconciler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.javaoperatorsdk.operator.api.config.informer.FieldSelector;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.GroupVersionKindPlural;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.ComponentEnablement.Resolution;
import io.kubevirt.hco.gate.GateService;
import io.kubevirt.hco.gate.OperatorConditionWriter;

/**
 * The reconciler's informers and what it reads from them: each component's CRD (its arrival or
 * removal changes what the stack is made of), OLM's OperatorCondition, the Nodes (upstream's
 * single-node defaults, {@link NodeRoleStore}), and each component's CR once it is part of the stack.
 */
@ApplicationScoped
public class StackInformers {

    private static final Logger LOG = Logger.getLogger(StackInformers.class);
    static final String NODES_SOURCE = "nodes";
    static final String OPERATOR_CONDITION_SOURCE = "operator-condition";

    @Inject
    OperatorSettings settings;

    @Inject
    OperatorConditionWriter operatorConditionWriter;

    @Inject
    GateService gate;

    public List<EventSource<?, HyperConverged>> eventSources(EventSourceContext<HyperConverged> context) {
        ResourceID singleton = singleton();
        List<EventSource<?, HyperConverged>> sources = new ArrayList<>();
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
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
                // the cache keeps each Node's name, resourceVersion and roles only: a Node's status
                // (images, conditions, addresses) runs to kilobytes, its labels to one, and a cluster
                // may have thousands
                .withItemStore(nodeRoles)
                .withOnUpdateFilter(WorkerNodes::rolesChanged)
                .withSecondaryToPrimaryMapper(r -> Set.of(singleton))
                // every Node is the singleton's, computed when asked (nothing asks): without this
                // mapper JOSDK indexes them, a ResourceID per Node kept for the singleton
                .<HyperConverged>withPrimaryToSecondaryMapper(primary -> nodeRoles.keySet()
                        .map(ResourceID::new).collect(java.util.stream.Collectors.toSet()))
                .withWatchAllNamespaces();
        sources.add(new InformerEventSource<>(nodes.build(), context));
        return sources;
    }

    /**
     * The informer of a component's CR, registered once its CRD is served and the component is part
     * of the stack, removed when its CRD goes away (an informer on a missing type only fails and
     * retries). Only the CR we manage: other objects of these kinds (a cluster may hold many SSPs)
     * must not wake the reconciler nor sit in its cache (bench: 92 reconciles/s at 100 unrelated
     * writes/s before this). The field selector filters on the server; the name filter covers API
     * servers that ignore it (the test server).
     */
    public void follow(Context<HyperConverged> context, Map<ComponentDescriptor, Resolution> installed) {
        var retriever = context.eventSourceRetriever();
        ResourceID singleton = singleton();
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
                retriever.dynamicallyRegisterEventSource(new ComponentInformer(config.build(),
                        retriever.eventSourceContextForDynamicRegistration(), d, gate, this::componentEventArrived));
                LOG.infof("%s is part of the stack: watching its CR %s", d.name(), d.crName());
            } else if (!e.getValue().managed() && registered) {
                retriever.dynamicallyDeRegisterEventSource(d.name());
                LOG.warnf("%s: %s", d.name(), e.getValue().message());
            }
        }
    }

    /** When the earliest component CR event not yet taken by a pass arrived (System.nanoTime); 0: none. */
    private final java.util.concurrent.atomic.AtomicLong componentEventArrived = new java.util.concurrent.atomic.AtomicLong();

    void componentEventArrived() {
        componentEventArrived.compareAndSet(0, System.nanoTime());
    }

    /** When the earliest component CR event since the last pass arrived (System.nanoTime); 0 when none did. */
    long takeComponentEvent() {
        return componentEventArrived.getAndSet(0);
    }

    /** The component's CR from its informer; null when absent or not watched (not part of the stack). */
    public GenericKubernetesResource component(Context<HyperConverged> context, ComponentDescriptor d) {
        var source = componentSource(context, d);
        return source == null ? null
                : source.get(new ResourceID(d.crName(), d.namespaced() ? settings.namespace() : null)).orElse(null);
    }

    @SuppressWarnings("unchecked")
    public CustomResourceDefinition crd(Context<HyperConverged> context, ComponentDescriptor d) {
        var source = (InformerEventSource<CustomResourceDefinition, HyperConverged>) context.eventSourceRetriever()
                .getEventSourceFor(CustomResourceDefinition.class, crdSource(d));
        return source.get(new ResourceID(d.crdName())).orElse(null);
    }

    /** The Node informer's cache, which also counts the workers from the roles it keeps. */
    private final NodeRoleStore nodeRoles = new NodeRoleStore();

    /** The nodes VMs can run on, from the Node informer's cache (0 before it has listed). */
    public int workerNodes() {
        return nodeRoles.workers();
    }

    /**
     * What a pass reads from the caches, as revisions: the HyperConverged (the current one in the
     * primary cache, or the given one), each component's CR and CRD, and the worker-node count. Two
     * equal values mean no event reached these caches in between (a prepared opening checks this).
     */
    public List<Object> revisions(Context<HyperConverged> context, HyperConverged given) {
        HyperConverged hco = given != null ? given
                : context.getPrimaryCache().get(singleton()).orElse(null);
        List<Object> revisions = new ArrayList<>();
        revisions.add(hco == null ? null : hco.getMetadata().getResourceVersion());
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            GenericKubernetesResource cr = component(context, d);
            CustomResourceDefinition crd = crd(context, d);
            revisions.add(cr == null ? null : cr.getMetadata().getResourceVersion());
            revisions.add(crd == null ? null : crd.getMetadata().getResourceVersion());
        }
        revisions.add(workerNodes());
        return revisions;
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
        var source = new InformerEventSource<>(config.build(), context);
        ResourceID id = new ResourceID(name, settings.namespace());
        operatorConditionWriter.readCachedCopyFrom(() -> source.get(id).orElse(null));
        return source;
    }

    private Optional<String> operatorConditionName() {
        return settings.operatorConditionName().filter(n -> !n.isBlank());
    }

    private ResourceID singleton() {
        return new ResourceID(HyperConverged.SINGLETON_NAME, settings.namespace());
    }

    private static String crdSource(ComponentDescriptor d) {
        return d.name() + "-crd";
    }
}
