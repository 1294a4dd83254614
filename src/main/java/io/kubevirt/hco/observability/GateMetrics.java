package io.kubevirt.hco.observability;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.kubevirt.hco.core.Blocker;
import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.core.GateInput;
import io.kubevirt.hco.core.GateReason;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The gate's metrics. Served on the management port whatever readiness says. Names keep
 * upstream HCO's meaning where upstream has them (kubevirt_hco_*).
 */
@ApplicationScoped
public class GateMetrics {

    /** kubevirt_hco_system_health_status values, as upstream: 0 healthy, 1 warning, 2 error. */
    static final int HEALTHY = 0;
    static final int WARNING = 1;
    static final int ERROR = 2;

    @Inject
    MeterRegistry registry;

    private final AtomicInteger upgradeable = new AtomicInteger();
    private final AtomicInteger upgradeInProgress = new AtomicInteger();
    private final AtomicInteger crExists = new AtomicInteger();
    private final AtomicInteger systemHealth = new AtomicInteger(ERROR);
    private final AtomicInteger stabilizing = new AtomicInteger();
    private final Map<String, AtomicInteger> componentReady = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> componentVersionMatch = new ConcurrentHashMap<>();
    private volatile boolean registered;

    private void register() {
        if (registered) {
            return;
        }
        registered = true;
        registry.gauge("kubevirt_hco_upgradeable", Tags.empty(), upgradeable);
        registry.gauge("kubevirt_hco_upgrade_in_progress", Tags.empty(), upgradeInProgress);
        registry.gauge("kubevirt_hco_hyperconverged_cr_exists", Tags.empty(), crExists);
        registry.gauge("kubevirt_hco_system_health_status", Tags.empty(), systemHealth);
        registry.gauge("kubevirt_hco_gate_stabilizing", Tags.empty(), stabilizing);
    }

    public synchronized void record(GateInput input, GateDecision decision) {
        register();
        upgradeable.set(decision.upgradeable() ? 1 : 0);
        upgradeInProgress.set(decision.assessment().upgrade().inProgress() && input.hyperConverged().present() ? 1 : 0);
        crExists.set(input.hyperConverged().present() ? 1 : 0);
        stabilizing.set(decision.reason() == GateReason.Stabilizing ? 1 : 0);
        for (GateInput.Component c : input.components()) {
            String name = c.expectation().component();
            Blocker blocker = decision.assessment().blockers().stream().filter(b -> b.subject().equals(name)).findFirst()
                    .orElse(null);
            gauge(componentReady, "kubevirt_hco_component_ready", name).set(blocker == null ? 1 : 0);
            boolean versionMatches = c.expectation().expectedVersion() != null
                    && c.expectation().expectedVersion().equals(c.observation().observedVersion());
            gauge(componentVersionMatch, "kubevirt_hco_component_version_match", name).set(versionMatches ? 1 : 0);
        }
        systemHealth.set(health(input, decision));
    }

    /** Error when a component is degraded or the evaluation failed; warning while anything blocks; else healthy. */
    private static int health(GateInput input, GateDecision decision) {
        boolean error = decision.assessment().blockers().stream().anyMatch(
                b -> b.reason() == GateReason.ComponentDegraded || b.reason() == GateReason.EvaluationError);
        if (error) {
            return ERROR;
        }
        if (!input.hyperConverged().present()) {
            return decision.upgradeable() ? HEALTHY : WARNING;
        }
        return decision.assessment().blockers().isEmpty() ? HEALTHY : WARNING;
    }

    public void transition(GateReason reason, boolean open) {
        registry.counter("kubevirt_hco_gate_transitions", "reason", reason.name(), "upgradeable", Boolean.toString(open))
                .increment();
    }

    public void outOfBandModification(String component) {
        registry.counter("kubevirt_hco_out_of_band_modifications", "component_name", component).increment();
    }

    public void operatorConditionWriteFailed() {
        registry.counter("kubevirt_hco_operator_condition_write_failures").increment();
    }

    private AtomicInteger gauge(Map<String, AtomicInteger> gauges, String metric, String component) {
        return gauges.computeIfAbsent(component,
                c -> registry.gauge(metric, Tags.of("component", c), new AtomicInteger()));
    }
}
