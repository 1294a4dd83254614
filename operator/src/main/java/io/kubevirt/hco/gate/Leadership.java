package io.kubevirt.hco.gate;

import java.util.UUID;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.kubevirt.hco.config.OperatorSettings;
import io.quarkus.arc.Unremovable;
import io.quarkus.runtime.Quarkus;
import io.quarkus.arc.properties.UnlessBuildProperty;

/**
 * Leader election on a Lease (JOSDK's): only the leader's controllers run, so only the leader
 * writes component specs, status and the gate. Losing the lease stops every write at once and
 * exits the process, so two writers never overlap. The default timings (137 s / 107 s / 26 s) are the ones
 * OpenShift recommends to operators: an API server rollout or outage shorter than the renew
 * deadline does not cost the lease, so it does not restart the operator. A leader that stops
 * gracefully hands the lease back ({@link LeaseRelease}) so its successor need not wait it out.
 * Disabled with the build property hco.leader-election.enabled=false (tests, single-replica dev).
 */
@Singleton
@Unremovable
@UnlessBuildProperty(name = "hco.leader-election.enabled", stringValue = "false", enableIfMissing = true)
public class Leadership extends LeaderElectionConfiguration {

    private static final Logger LOG = Logger.getLogger(Leadership.class);

    public Leadership(io.kubevirt.hco.lifecycle.ProcessLifecycle lifecycle, OperatorSettings settings) {
        super(settings.leaderElection().leaseName(), settings.namespace(), settings.leaderElection().leaseDuration(),
                settings.leaderElection().renewDeadline(), settings.leaderElection().retryPeriod(), identity(),
                new LeaderCallbacks(() -> {
                    LOG.info("became the leader");
                    lifecycle.leadership(true);
                }, () -> {
                    lifecycle.leadership(false);
                    if (lifecycle.shuttingDown()) {
                        LOG.info("stopped leading: shutting down");
                    } else {
                        // not JOSDK's System.exit: that blocks forever when it runs inside shutdown
                        LOG.error("lost the lease: exiting so that a restart rejoins the election");
                        Quarkus.asyncExit(1);
                    }
                }, identity -> LOG.infof("leader is now %s", identity)), false);
    }

    /** The pod name where there is one (as kubectl shows it), else a random one: never shared by two processes. */
    public static String identity() {
        String host = System.getenv("HOSTNAME");
        return host == null || host.isBlank() ? "hco-operator-" + UUID.randomUUID() : host;
    }
}
