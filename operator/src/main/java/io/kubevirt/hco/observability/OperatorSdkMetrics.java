package io.kubevirt.hco.observability;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetricsV2;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The operator SDK's reconcile metrics ({@code reconciliations_*}), built on the registry itself.
 * The extension's own producer returns the SDK's no-op metrics until Micrometer has bound its
 * provider, and the SDK's configuration takes them once at start-up: whether they were real
 * depended on an order of start-up steps that nothing declares (dropping an unrelated extension
 * reversed it). This producer takes precedence over the extension's.
 */
public class OperatorSdkMetrics {

    @Produces
    @Singleton
    @Alternative
    @Priority(1)
    Metrics operatorSdkMetrics(MeterRegistry registry) {
        return MicrometerMetricsV2.newBuilder(registry).build();
    }
}
