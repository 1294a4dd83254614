package io.kubevirt.hco.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

import io.javaoperatorsdk.operator.Operator;

/**
 * Liveness: the process and its operator runtime are up. Deliberately blind to the gate and to the
 * API server: a long upgrade or an API outage must never get the pod restarted.
 */
@Liveness
@ApplicationScoped
public class OperatorLivenessCheck implements HealthCheck {

    @Inject
    Operator operator;

    @Override
    public HealthCheckResponse call() {
        boolean started = operator.getRuntimeInfo().isStarted();
        return HealthCheckResponse.named("hco-operator").status(started).withData("operatorStarted", started).build();
    }
}
