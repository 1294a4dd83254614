package io.kubevirt.hco.reconciler;

import java.util.List;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.kubevirt.hco.api.v1beta1.HyperConverged;

/** Releases before 2.1 put the SDK's default finalizer on the HyperConverged: dropped once upstream's is on. */
final class LegacyFinalizer {

    static final String NAME = "hyperconvergeds.hco.kubevirt.io/finalizer";
    private static final Logger LOG = Logger.getLogger(LegacyFinalizer.class);

    private LegacyFinalizer() {
    }

    static void replace(HyperConverged hco, Context<HyperConverged> context) {
        List<String> finalizers = hco.getMetadata().getFinalizers();
        if (finalizers == null || !finalizers.contains(NAME) || !finalizers.contains(HyperConvergedReconciler.FINALIZER)) {
            return;
        }
        try {
            context.getClient().resource(hco).edit(h -> {
                h.getMetadata().getFinalizers().remove(NAME);
                return h;
            });
            LOG.infof("replaced the finalizer %s with %s", NAME, HyperConvergedReconciler.FINALIZER);
        } catch (KubernetesClientException e) {
            LOG.warnf("removing the legacy finalizer %s failed (%s); retried next time", NAME, e.getMessage());
        }
    }
}
