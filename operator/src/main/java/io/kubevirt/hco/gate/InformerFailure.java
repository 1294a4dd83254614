package io.kubevirt.hco.gate;

import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import io.kubevirt.hco.core.HyperConvergedObservation;
import io.kubevirt.hco.reconciler.StackSnapshots;
import io.quarkiverse.operatorsdk.runtime.api.ConfigurationServiceCustomizer;

/**
 * An informer that stops on an error after it synced (a re-list refused right after the API server
 * restarted, say) leaves this process blind to what it watched. The SDK then exits the process, and
 * Kubernetes restarts the container, whose first act is to hold the gate. Between the two, OLM would
 * read whatever was last written, True included: so the gate is closed first, then the process
 * exits as before.
 */
@ApplicationScoped
public class InformerFailure implements ConfigurationServiceCustomizer {

    private static final Logger LOG = Logger.getLogger(InformerFailure.class);

    @Inject
    GateService gate;

    @Inject
    StackSnapshots snapshots;

    @Override
    public Consumer<ConfigurationServiceOverrider> overrider() {
        return o -> o.withInformerStoppedHandler((informer, error) -> {
            if (error == null || !informer.hasSynced()) {
                return;
            }
            String why = "an informer stopped on an error (" + error.getMessage() + "): this process no longer sees "
                    + "what it watched; restarting";
            LOG.errorf(error, "%s", why);
            try {
                var last = gate.currentInput();
                gate.evaluate(last != null ? last.withEvaluationError(why)
                        : snapshots.snapshot(HyperConvergedObservation.absent(), d -> null, null, why), null);
            } catch (RuntimeException e) {
                LOG.warnf("closing the gate before the restart failed: %s", e.getMessage());
            } finally {
                System.exit(1);
            }
        });
    }
}
