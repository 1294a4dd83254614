package io.kubevirt.hco.gate;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.Succession;
import io.kubevirt.hco.core.Succession.Announcement;
import io.kubevirt.hco.support.DaemonTimer;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * The shell of {@link Succession}: every few seconds it reads the revisions of this pod's
 * ReplicaSet and of its Deployment, and the successor's announcement (a second Lease, next to the
 * election's). A current standby renews that announcement; an outdated leader stops (exit code 0,
 * its container restarts as a standby) and, once its controllers have stopped, writes the
 * successor as the election Lease's holder ({@link LeaseRelease}), so the successor takes over at
 * its next retry and no outdated replica can take the Lease in between.
 */
@ApplicationScoped
public class RolloutHandover {

    static final String REVISION = "deployment.kubernetes.io/revision";
    static final String ANNOUNCED_REVISION = "hco.kubevirt.io/revision";
    private static final Logger LOG = Logger.getLogger(RolloutHandover.class);

    @Inject
    KubernetesClient client;

    @Inject
    OperatorSettings settings;

    @Inject
    io.kubevirt.hco.lifecycle.ProcessLifecycle lifecycle;

    @Inject
    Instance<LeaderElectionConfiguration> leaderElection;

    private ScheduledExecutorService checks;
    private volatile String successor;
    private String lastProblem;

    void onStart(@Observes StartupEvent event) {
        var election = settings.leaderElection();
        if (leaderElection.isUnsatisfied()) {
            return;
        }
        if (election.deploymentName().isEmpty() || election.podTemplateHash().isEmpty()) {
            LOG.info("rollout handover off: HCO_DEPLOYMENT_NAME or HCO_POD_TEMPLATE_HASH is not set (not run by a "
                    + "Deployment); the Lease stays with whoever holds it until it is released or expires");
            return;
        }
        checks = DaemonTimer.named("hco-rollout-handover");
        long every = election.handoverCheckInterval().toMillis();
        checks.scheduleWithFixedDelay(this::check, every, every, TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        if (checks != null) {
            checks.shutdownNow();
        }
    }

    /** The replica to hand the election Lease to on shutdown; null: release it as usual. */
    public String successor() {
        return successor;
    }

    private void check() {
        if (successor != null || lifecycle.shuttingDown()) {
            return;
        }
        try {
            String self = leaderElection.get().getIdentity().orElseThrow();
            Succession.Step step = Succession.next(lifecycle.leader(), self, revision(replicaSetName(), true),
                    revision(settings.leaderElection().deploymentName().orElseThrow(), false), announcement(),
                    Instant.now());
            if (step instanceof Succession.Announce announce) {
                announce(self, announce.revision());
            } else if (step instanceof Succession.HandOver handOver) {
                LOG.infof("revision %d of Deployment %s is rolling out and its pod %s is ready to lead: stopping to "
                        + "hand the lease over (this container restarts as a standby until the rollout replaces it)",
                        handOver.revision(), settings.leaderElection().deploymentName().orElseThrow(),
                        handOver.successor());
                successor = handOver.successor();
                Quarkus.asyncExit(0);
            }
            lastProblem = null;
        } catch (KubernetesClientException e) {
            // not fatal: leadership stays as elected; said once per kind of failure, not every few seconds
            String problem = e.getCode() + " " + e.getMessage();
            if (!problem.equals(lastProblem)) {
                LOG.warnf("rollout handover check failed (leadership stays as elected until it succeeds): %s",
                        e.getMessage());
                lastProblem = problem;
            }
        } catch (RuntimeException e) {
            LOG.warnf(e, "rollout handover check failed");
        }
    }

    private String replicaSetName() {
        return settings.leaderElection().deploymentName().orElseThrow() + "-"
                + settings.leaderElection().podTemplateHash().orElseThrow();
    }

    private Long revision(String name, boolean replicaSet) {
        HasMetadata object = replicaSet
                ? client.apps().replicaSets().inNamespace(settings.namespace()).withName(name).get()
                : client.apps().deployments().inNamespace(settings.namespace()).withName(name).get();
        if (object == null || object.getMetadata().getAnnotations() == null) {
            return null;
        }
        return parse(object.getMetadata().getAnnotations().get(REVISION));
    }

    private static Long parse(String value) {
        try {
            return value == null ? null : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private String announcementName() {
        return settings.leaderElection().leaseName() + "-successor";
    }

    private Announcement announcement() {
        Lease lease = client.leases().inNamespace(settings.namespace()).withName(announcementName()).get();
        if (lease == null || lease.getSpec() == null || lease.getSpec().getHolderIdentity() == null) {
            return null;
        }
        Map<String, String> annotations = lease.getMetadata().getAnnotations();
        Long revision = annotations == null ? null : parse(annotations.get(ANNOUNCED_REVISION));
        ZonedDateTime renewed = lease.getSpec().getRenewTime();
        Integer seconds = lease.getSpec().getLeaseDurationSeconds();
        return new Announcement(lease.getSpec().getHolderIdentity(), revision == null ? -1 : revision,
                renewed == null ? null : renewed.toInstant(), seconds == null ? null : Duration.ofSeconds(seconds));
    }

    private void announce(String self, long revision) {
        // valid for three checks: one missed renewal does not drop a live successor
        int validFor = (int) Math.max(1, settings.leaderElection().handoverCheckInterval().multipliedBy(3).toSeconds());
        Lease lease = new LeaseBuilder().withNewMetadata().withName(announcementName())
                .withNamespace(settings.namespace()).addToAnnotations(ANNOUNCED_REVISION, Long.toString(revision))
                .endMetadata().withNewSpec().withHolderIdentity(self).withLeaseDurationSeconds(validFor)
                .withRenewTime(ZonedDateTime.now(ZoneOffset.UTC)).endSpec().build();
        client.leases().inNamespace(settings.namespace()).resource(lease).createOr(existing -> existing.update());
    }
}
