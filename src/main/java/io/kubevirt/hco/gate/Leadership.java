package io.kubevirt.hco.gate;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.quarkus.arc.properties.UnlessBuildProperty;
import io.quarkus.arc.Unremovable;

/**
 * Leader election on a Lease (JOSDK's): only the leader's controllers run, so only the leader
 * writes component specs, status and the gate. Losing the lease exits the process (JOSDK's
 * default), so two writers can never overlap for longer than the lease's renew deadline.
 * Disabled with the build property hco.leader-election.enabled=false (tests, single-replica dev).
 */
@Singleton
@Unremovable
@UnlessBuildProperty(name = "hco.leader-election.enabled", stringValue = "false", enableIfMissing = true)
public class Leadership extends LeaderElectionConfiguration {

    private static final Logger LOG = Logger.getLogger(Leadership.class);
    static GateService gate;

    public Leadership(GateService gateService) {
        super(org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getOptionalValue("hco.leader-election.lease-name", String.class).orElse("hco-operator-lock"),
                org.eclipse.microprofile.config.ConfigProvider.getConfig()
                        .getOptionalValue("hco.namespace", String.class).orElse(null),
                LEASE_DURATION_DEFAULT_VALUE, RENEW_DEADLINE_DEFAULT_VALUE, RETRY_PERIOD_DEFAULT_VALUE, null,
                new LeaderCallbacks(() -> {
                    LOG.info("became the leader");
                    gateService.leadership(true);
                }, () -> {
                    LOG.warn("lost leadership");
                    gateService.leadership(false);
                }, identity -> LOG.infof("leader is now %s", identity)), true);
    }
}
