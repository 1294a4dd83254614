package io.kubevirt.hco.gate;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.quarkus.arc.properties.UnlessBuildProperty;
import io.quarkus.arc.Unremovable;
import io.kubevirt.hco.config.OperatorSettings;

/**
 * Leader election on a Lease (JOSDK's): only the leader's controllers run, so only the leader
 * writes component specs, status and the gate. Losing the lease exits the process (JOSDK's
 * default), so two writers never overlap. The default timings (137 s / 107 s / 26 s) are the ones
 * OpenShift recommends to operators: an API server rollout or outage shorter than the renew
 * deadline does not cost the lease, so it does not restart the operator.
 * Disabled with the build property hco.leader-election.enabled=false (tests, single-replica dev).
 */
@Singleton
@Unremovable
@UnlessBuildProperty(name = "hco.leader-election.enabled", stringValue = "false", enableIfMissing = true)
public class Leadership extends LeaderElectionConfiguration {

    private static final Logger LOG = Logger.getLogger(Leadership.class);
    static GateService gate;

    public Leadership(GateService gateService, OperatorSettings settings) {
        super(settings.leaderElection().leaseName(), settings.namespace(), settings.leaderElection().leaseDuration(),
                settings.leaderElection().renewDeadline(), settings.leaderElection().retryPeriod(), null,
                new LeaderCallbacks(() -> {
                    LOG.info("became the leader");
                    gateService.leadership(true);
                }, () -> {
                    LOG.warn("lost leadership");
                    gateService.leadership(false);
                }, identity -> LOG.infof("leader is now %s", identity)), true);
    }
}
