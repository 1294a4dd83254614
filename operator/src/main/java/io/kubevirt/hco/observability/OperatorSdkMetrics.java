package io.kubevirt.hco.observability;

import java.util.function.Consumer;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetricsV2;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkiverse.operatorsdk.runtime.api.ConfigurationServiceCustomizer;

/**
 * Hands the operator SDK its reconcile metrics ({@code reconciliations_*}) built on the registry
 * itself. The extension's own provider is a meter binder whose metrics stay a no-op until
 * Micrometer binds it, and the SDK takes them once at start-up: whether they were real depended on
 * an order of start-up steps that nothing declares (dropping an unrelated extension reversed it).
 */
@Singleton
@io.quarkus.arc.Unremovable
public class OperatorSdkMetrics implements ConfigurationServiceCustomizer {

    @Inject
    MeterRegistry registry;

    @Override
    public Consumer<ConfigurationServiceOverrider> overrider() {
        return overrider -> overrider.withMetrics(MicrometerMetricsV2.newBuilder(registry).build());
    }
}
