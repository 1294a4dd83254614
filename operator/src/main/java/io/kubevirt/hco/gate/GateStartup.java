package io.kubevirt.hco.gate;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.support.DaemonTimer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Start-up ordering: the very first thing written is Upgradeable=False/Initializing, before the
 * controllers start (this observer runs ahead of the operator's own start-up observer). When the
 * API is not reachable yet, it keeps trying in the background; readiness stays DOWN meanwhile.
 */
@ApplicationScoped
public class GateStartup {

    private static final Logger LOG = Logger.getLogger(GateStartup.class);

    @Inject
    io.kubevirt.hco.lifecycle.ProcessLifecycle lifecycle;

    @Inject
    io.kubevirt.hco.gate.GatePublisher publisher;

    @Inject
    OperatorSettings settings;

    @Inject
    Instance<LeaderElectionConfiguration> leaderElection;

    @Inject
    AbsentStackWatcher absentStack;

    private ScheduledExecutorService retries;

    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event) {
        if (lifecycle.operatorVersion() == null) {
            LOG.error("OPERATOR_VERSION is not set: the gate stays closed (EvaluationError) until it is");
        }
        if (leaderElection.isUnsatisfied()) {
            LOG.info("leader election disabled: this process acts as the leader");
            lifecycle.leadership(true);
        }
        retries = DaemonTimer.named("hco-gate-startup");
        if (!publisher.holdAtStartup()) {
            long every = settings.gate().writeRetryInterval().toMillis();
            retries.scheduleWithFixedDelay(() -> {
                if (publisher.holdAtStartup()) {
                    throw new IllegalStateException("held: stop retrying");
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }
        absentStack.start();
    }

    void beforeStop(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent event) {
        lifecycle.shutdownStarted();
    }

    void onStop(@Observes ShutdownEvent event) {
        if (retries != null) {
            retries.shutdownNow();
        }
        absentStack.stop();
    }
}
