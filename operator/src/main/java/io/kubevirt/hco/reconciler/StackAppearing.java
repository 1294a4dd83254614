package io.kubevirt.hco.reconciler;

import io.kubevirt.hco.snapshot.StackSnapshots;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnAddFilter;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.gate.GateService;
import io.quarkus.arc.Arc;

/**
 * Closes an open "nothing installed" gate the moment the informer sees a HyperConverged appear, and
 * only then lets the event through. It runs on the informer's thread before the SDK dispatches the
 * event, so before the SDK's finalizer patch and before any component CR is written: OLM can no
 * longer read True for a stack that is being installed. A filter that accepts everything; the SDK
 * creates it, so the gate is looked up rather than injected.
 */
public class StackAppearing implements OnAddFilter<HyperConverged> {

    @Override
    public boolean accept(HyperConverged hco) {
        if (HyperConverged.SINGLETON_NAME.equals(hco.getMetadata().getName())) {
            Arc.container().instance(GateService.class).get().stackAppeared(StackSnapshots.observe(hco, null));
        }
        return true;
    }
}
