package io.kubevirt.hco.gate;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.Succession;
import io.kubevirt.hco.core.Succession.Announcement;
import io.kubevirt.hco.support.ChangeHandler;
import io.kubevirt.hco.support.DaemonTimer;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * The shell of {@link Succession}. It watches its own Deployment; while the Deployment controller
 * says the rollout has finished, nothing is read or written (that is every day but the few minutes
 * of a rollout). While a rollout is under way, every few seconds and whenever the Deployment changes,
 * it reads the revision of this pod's ReplicaSet and the successor's announcement (a second Lease,
 * next to the election's). A current standby renews that announcement; an outdated leader stops
 * (exit code 0, its container restarts as a standby) and, once its controllers have stopped, writes
 * the successor as the election Lease's holder ({@link LeaseRelease}), so the successor takes over
 * at its next retry and no outdated replica can take the Lease in between.
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
    private SharedIndexInformer<Deployment> deployment;
    private volatile String successor;
    private String lastProblem;
    private volatile String lastWatchProblem;
    private final AtomicBoolean checkQueued = new AtomicBoolean();

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
        watchDeployment(election.deploymentName().orElseThrow());
        long every = election.handoverCheckInterval().toMillis();
        checks.scheduleWithFixedDelay(this::check, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * A watch on the one Deployment, so that a finished rollout costs no request: the check
     * reads its cached copy. A change that shows a rollout checks at once rather than at the next tick.
     */
    private void watchDeployment(String name) {
        deployment = client.apps().deployments().inNamespace(settings.namespace()).withName(name).runnableInformer(0);
        // no Deployment, no revision to follow: a deletion changes nothing, leadership stays as elected
        deployment.addEventHandler(ChangeHandler.of(this::deploymentChanged, gone -> {
        }));
        // not fatal and never given up: the handover waits (and says so) until the watch works
        deployment.exceptionHandler((started, error) -> {
            String problem = error.getMessage();
            if (!Objects.equals(problem, lastWatchProblem)) {
                LOG.warnf("cannot watch Deployment %s (retrying; until it works no rollout hands the lease over to "
                        + "the new revision, and in readiness gate mode such a rollout cannot finish; the operator "
                        + "needs list and watch on deployments in its namespace): %s", name, problem);
                lastWatchProblem = problem;
            }
            return true;
        });
        deployment.start();
    }

    private void deploymentChanged(Deployment d) {
        lastWatchProblem = null;
        // the controller writes its status several times a second during a rollout: one queued check is enough
        if (!rolloutFinished(d) && checkQueued.compareAndSet(false, true)) {
            try {
                checks.execute(this::check);
            } catch (RejectedExecutionException stopping) {
                // shutting down: nothing to hand over any more
            }
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        if (deployment != null) {
            deployment.close();
        }
        if (checks != null) {
            checks.shutdownNow();
        }
    }

    /** The replica to hand the election Lease to on shutdown; null: release it as usual. */
    public String successor() {
        return successor;
    }

    private void check() {
        checkQueued.set(false);
        if (successor != null || lifecycle.shuttingDown()) {
            return;
        }
        Deployment current = cachedDeployment();
        if (current == null || rolloutFinished(current)) {
            return;
        }
        try {
            String self = leaderElection.get().getIdentity().orElseThrow();
            Succession.Step step = Succession.next(lifecycle.leader(), self, replicaSetRevision(),
                    revision(current), announcement(), Instant.now());
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

    /** The Deployment as last watched; null before the watch's first list, or when there is none. */
    private Deployment cachedDeployment() {
        var election = settings.leaderElection();
        return deployment.getStore().getByKey(settings.namespace() + "/" + election.deploymentName().orElseThrow());
    }

    private static boolean rolloutFinished(Deployment d) {
        DeploymentStatus status = d.getStatus();
        return status != null && Succession.rolloutFinished(d.getMetadata().getGeneration() == null ? 0
                : d.getMetadata().getGeneration(), status.getObservedGeneration(), d.getSpec().getReplicas(),
                status.getReplicas(), status.getUpdatedReplicas());
    }

    /**
     * Read fresh during a rollout, never cached: a rollback re-uses an older ReplicaSet and gives it
     * the newest revision while its pods live.
     */
    private Long replicaSetRevision() {
        var election = settings.leaderElection();
        String name = election.deploymentName().orElseThrow() + "-" + election.podTemplateHash().orElseThrow();
        return revision(client.apps().replicaSets().inNamespace(settings.namespace()).withName(name).get());
    }

    private static Long revision(HasMetadata object) {
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
