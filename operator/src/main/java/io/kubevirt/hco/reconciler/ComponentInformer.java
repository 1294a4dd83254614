package io.kubevirt.hco.reconciler;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ObservationReader;
import io.kubevirt.hco.core.ComponentObservation;
import io.kubevirt.hco.gate.GateService;

/**
 * The informer of one component's CR. Besides waking the reconciler, it shows each change of the
 * CR to the gate, which closes at once if the change closes it ({@link GateService#componentSeen}):
 * a degradation reaches OLM without waiting for the pass it wakes.
 */
final class ComponentInformer extends InformerEventSource<GenericKubernetesResource, HyperConverged> {

    private static final Logger LOG = Logger.getLogger(ComponentInformer.class);

    private final ComponentDescriptor component;
    private final GateService gate;
    /** Told of each event before it is handed on: the pass it wakes times its dispatch from there. */
    private final Runnable arrived;

    ComponentInformer(InformerEventSourceConfiguration<GenericKubernetesResource> configuration,
            EventSourceContext<HyperConverged> context, ComponentDescriptor component, GateService gate,
            Runnable arrived) {
        super(configuration, context);
        this.component = component;
        this.gate = gate;
        this.arrived = arrived;
    }

    @Override
    public void onUpdate(GenericKubernetesResource before, GenericKubernetesResource now) {
        arrived.run();
        // the pass first: it runs on its own thread meanwhile, and waits for the gate's lock
        super.onUpdate(before, now);
        if (component.crName().equals(now.getMetadata().getName())) {
            show(ObservationReader.read(component, now));
        }
    }

    @Override
    public void onDelete(GenericKubernetesResource gone, boolean finalStateUnknown) {
        arrived.run();
        super.onDelete(gone, finalStateUnknown);
        if (component.crName().equals(gone.getMetadata().getName())) {
            show(ComponentObservation.absent());
        }
    }

    private void show(ComponentObservation seen) {
        try {
            gate.componentSeen(component.name(), seen);
        } catch (RuntimeException e) {
            // the informer's thread must go on delivering; the pass the event woke decides anyway
            LOG.warnf(e, "%s: deciding on its changed CR failed; the reconcile it woke decides", component.name());
        }
    }
}
