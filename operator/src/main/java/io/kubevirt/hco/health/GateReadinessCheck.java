package io.kubevirt.hco.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.config.OperatorSettings.GateMode;
import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.gate.GateService;
import io.kubevirt.hco.gate.OperatorConditionWriter;

/**
 * Readiness: UP once the gate is held (Initializing written), so OLM cannot count this CSV as
 * installed before it can stop the next upgrade. In readiness gate mode (OLM without
 * OperatorCondition) it is also DOWN until the install or upgrade has settled (gate opened after the
 * stabilization window), on every replica ({@link UpgradeSettledLatch}). The informers'
 * sync is reported by the operator SDK's own readiness check next to this one.
 */
@Readiness
@ApplicationScoped
public class GateReadinessCheck implements HealthCheck {

    @Inject
    GateService gate;

    @Inject
    io.kubevirt.hco.lifecycle.ProcessLifecycle lifecycle;

    @Inject
    io.kubevirt.hco.gate.GatePublisher publisher;

    @Inject
    OperatorSettings settings;

    @Inject
    OperatorConditionWriter writer;

    @Inject
    UpgradeSettledLatch upgradeSettled;

    @Override
    public HealthCheckResponse call() {
        GateMode mode = settings.gate().mode().resolve(writer.enabled());
        GateDecision decision = gate.current();
        var response = HealthCheckResponse.named("hco-upgrade-gate")
                .withData("mode", mode.name())
                .withData("held", publisher.held())
                .withData("upgradeable", decision != null && decision.upgradeable())
                .withData("reason", decision == null ? "none yet" : decision.reason().name());
        if (!publisher.held()) {
            return response.withData("message", "Upgradeable=False/Initializing not written yet").down().build();
        }
        if (mode == GateMode.READINESS && !upgradeSettled.settled()) {
            return response.withData("message", "readiness gate mode: the install or upgrade to this version has not "
                    + "settled yet (" + (lifecycle.leader() ? "leader" : "standby, as the leader recorded it") + ")").down()
                    .build();
        }
        return response.up().build();
    }
}
