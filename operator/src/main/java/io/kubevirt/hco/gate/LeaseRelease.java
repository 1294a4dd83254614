package io.kubevirt.hco.gate;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.kubevirt.hco.config.OperatorSettings;
import io.quarkus.runtime.ShutdownEvent;

/**
 * On a graceful stop, after the controllers stopped, a leader deletes its Lease (only if it still
 * holds it: the delete carries the read resourceVersion), so the next version's pod becomes leader
 * within one retry period instead of waiting for the lease to expire; a leader that stops to hand
 * over to a newer revision ({@link RolloutHandover}) writes that successor as the holder instead.
 * A killed process cannot do this; then the lease expires as usual.
 */
@ApplicationScoped
public class LeaseRelease {

    private static final Logger LOG = Logger.getLogger(LeaseRelease.class);

    @Inject
    KubernetesClient client;

    @Inject
    OperatorSettings settings;

    @Inject
    Instance<LeaderElectionConfiguration> leaderElection;

    @Inject
    RolloutHandover handover;

    void onStop(@Observes @Priority(Interceptor.Priority.PLATFORM_AFTER + 1000) ShutdownEvent event) {
        if (leaderElection.isUnsatisfied()) {
            return;
        }
        String identity = leaderElection.get().getIdentity().orElse(null);
        // the operator SDK closed the shared client when it stopped (and with it the elector, so
        // nothing renews the lease any more): a short-lived client of the same configuration
        try (KubernetesClient own = new KubernetesClientBuilder().withConfig(client.getConfiguration()).build()) {
            var lease = own.leases().inNamespace(settings.namespace()).withName(settings.leaderElection().leaseName())
                    .get();
            if (lease != null && lease.getSpec() != null && identity != null
                    && identity.equals(lease.getSpec().getHolderIdentity())) {
                String successor = handover.successor();
                if (successor == null) {
                    own.leases().inNamespace(settings.namespace()).resource(lease).lockResourceVersion().delete();
                    LOG.infof("released the lease %s on shutdown", settings.leaderElection().leaseName());
                } else {
                    handOver(own, lease, successor);
                }
            }
        } catch (RuntimeException e) {
            LOG.infof("could not release the lease on shutdown (it will expire): %s", e.getMessage());
        }
    }

    /**
     * The successor becomes the holder, renewed now: it finds itself holding the Lease at its next
     * retry and leads, while every other replica sees a live Lease and keeps waiting. Deleting it
     * instead would let an outdated replica that happens to retry first take it back.
     */
    private void handOver(KubernetesClient own, Lease lease, String successor) {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        lease.getSpec().setHolderIdentity(successor);
        lease.getSpec().setAcquireTime(now);
        lease.getSpec().setRenewTime(now);
        Integer transitions = lease.getSpec().getLeaseTransitions();
        lease.getSpec().setLeaseTransitions(transitions == null ? 1 : transitions + 1);
        own.leases().inNamespace(settings.namespace()).resource(lease).lockResourceVersion(
                lease.getMetadata().getResourceVersion()).update();
        LOG.infof("handed the lease %s to %s on shutdown", settings.leaderElection().leaseName(), successor);
    }
}
