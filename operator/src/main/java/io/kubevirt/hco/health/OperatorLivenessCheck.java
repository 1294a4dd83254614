package io.kubevirt.hco.health;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.health.InformerHealthIndicator;

/**
 * Liveness: the process and its operator runtime are up, and no informer has stopped for good.
 * Deliberately blind to the gate and to the API server: a long upgrade or an API outage must never
 * get the pod restarted, so an informer that is only reconnecting (not watching) is reported but
 * stays UP; one that had synced and then stopped is DOWN, because only a restart lists again.
 */
@Liveness
@ApplicationScoped
public class OperatorLivenessCheck implements HealthCheck {

    @Inject
    Operator operator;

    @Override
    public HealthCheckResponse call() {
        var runtime = operator.getRuntimeInfo();
        boolean started = runtime.isStarted();
        var response = HealthCheckResponse.named("hco-operator").withData("operatorStarted", started);
        if (!started) {
            return response.down().build();
        }
        List<String> stopped = new java.util.ArrayList<>();
        List<String> notWatching = new java.util.ArrayList<>();
        for (var controller : runtime.getRegisteredControllers()) {
            for (var source : controller.getControllerHealthInfo().informerEventSourceHealthIndicators().values()) {
                for (Object informer : source.informerHealthIndicators().values()) {
                    classify((InformerHealthIndicator) informer, stopped, notWatching);
                }
            }
        }
        if (!notWatching.isEmpty()) {
            response.withData("informersReconnecting", String.join(", ", notWatching));
        }
        if (!stopped.isEmpty()) {
            return response.withData("informersStopped", String.join(", ", stopped)).down().build();
        }
        return response.up().build();
    }

    private static void classify(InformerHealthIndicator informer, List<String> stopped, List<String> notWatching) {
        String name = informer.toString();
        if (informer.hasSynced() && !informer.isRunning()) {
            stopped.add(name);
        } else if (!informer.isWatching()) {
            notWatching.add(name);
        }
    }
}
