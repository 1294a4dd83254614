package io.kubevirt.hco.gate;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.javaoperatorsdk.operator.api.config.InformerStoppedHandler;
import io.quarkus.arc.Unremovable;

/**
 * What happens when an informer stops for good. fabric8 stops one when its watch ends with an error
 * it does not retry (an undecodable event, a protocol error): from then on its cache is frozen, and
 * every decision read from it would repeat the last state seen, possibly an open gate, while the
 * component moves on. So the gate closes first, with the reason, and then the process exits so that
 * a restarted pod lists and watches afresh. Liveness reports the stopped informer too, in case the
 * exit does not happen.
 *
 * <p>Without this bean quarkus-operator-sdk configures no handler at all (JOSDK's default, which
 * exits, only applies to a ConfigurationService that does not override it).
 */
@ApplicationScoped
@Unremovable
public class InformerStopGuard implements InformerStoppedHandler {

    private static final Logger LOG = Logger.getLogger(InformerStopGuard.class);

    @Inject
    GateService gate;

    @Inject
    ProcessExit exit;

    @Override
    public void onStop(SharedIndexInformer informer, Throwable error) {
        if (error == null) {
            LOG.debugf("informer %s stopped", informer);
            return;
        }
        if (!informer.hasSynced()) {
            // its start fails, and whoever started it reports that (JOSDK stops the operator at
            // start-up; a component's source registered later fails that reconcile)
            LOG.warnf("informer %s failed before its first list completed: %s", informer, error.getMessage());
            return;
        }
        String why = "the watch of " + informer + " stopped with an error (" + error.getMessage()
                + "): its cache no longer follows the cluster; the operator exits so that its pod restarts with fresh watches";
        LOG.error(why, error);
        gate.cacheFrozen(why);
        exit.exit(1);
    }
}
