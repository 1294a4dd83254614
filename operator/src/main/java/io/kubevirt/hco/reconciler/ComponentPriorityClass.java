package io.kubevirt.hco.reconciler;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kubevirt.hco.support.DaemonTimer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * The PriorityClass that virt-operator's and cdi-operator's pods (and their operands) name, which
 * neither creates and OLM cannot ship: created by the leader as soon as it leads (upstream HCO
 * creates it at start-up), so that a CSV's component Deployments can become available before any
 * HyperConverged exists. Only created,
 * never changed or deleted: pods running with it outlive this operator. Retried until it exists.
 */
@ApplicationScoped
public class ComponentPriorityClass {

    private static final Logger LOG = Logger.getLogger(ComponentPriorityClass.class);
    public static final String NAME = "kubevirt-cluster-critical";
    static final long RETRY_SECONDS = 30;

    @Inject
    KubernetesClient client;

    private ScheduledExecutorService retries;

    @Inject
    io.kubevirt.hco.lifecycle.ProcessLifecycle lifecycle;

    /** By the leader only: a standby writes nothing but its start-up hold. */
    void onStart(@Observes StartupEvent event) {
        retries = DaemonTimer.named("hco-priority-class");
        lifecycle.onLeadership(() -> retries.execute(this::ensureOrRetry));
    }

    void onStop(@Observes ShutdownEvent event) {
        if (retries != null) {
            retries.shutdownNow();
        }
    }

    private void ensureOrRetry() {
        try {
            ensure();
        } catch (KubernetesClientException e) {
            LOG.warnf("could not create PriorityClass %s (the component operators' pods wait for it; retried every %d s): %s",
                    NAME, RETRY_SECONDS, e.getMessage());
            retries.schedule(this::ensureOrRetry, RETRY_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Creates it unless it exists (a create answered 409: no read, no list, one verb). */
    void ensure() {
        try {
            client.resource(new PriorityClassBuilder().withNewMetadata().withName(NAME)
                    .addToLabels("app.kubernetes.io/managed-by", "hco-operator").endMetadata()
                    // upstream's value and text: the highest a non-system class may have
                    .withValue(1_000_000_000).withGlobalDefault(false)
                    .withDescription("This priority class should be used for core kubevirt components only.").build())
                    .create();
            LOG.infof("created PriorityClass %s", NAME);
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }
}
