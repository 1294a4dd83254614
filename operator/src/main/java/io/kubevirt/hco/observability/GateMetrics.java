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
import io.kubevirt.hco.core.StackConditions;
import io.kubevirt.hco.core.SystemHealth;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The gate's metrics. Served on the management port whatever readiness says. Names keep
 * upstream HCO's meaning where upstream has them (kubevirt_hco_*).
 */
@ApplicationScoped
public class GateMetrics {

    @Inject
    MeterRegistry registry;

    private final AtomicInteger upgradeable = new AtomicInteger();
    private final AtomicInteger upgradeInProgress = new AtomicInteger();
    private final AtomicInteger crExists = new AtomicInteger();
    private final AtomicInteger systemHealth = new AtomicInteger(SystemHealth.ERROR.value());
    private final AtomicInteger stabilizing = new AtomicInteger();
    private final Map<String, AtomicInteger> componentReady = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> componentVersionMatch = new ConcurrentHashMap<>();
    private volatile boolean registered;

    private void register() {
        if (registered) {
            return;
        }
        registered = true;
        gauge("kubevirt_hco_upgradeable", "1 when the Upgradeable gate is open (what OLM reads), else 0",
                Tags.empty(), upgradeable);
        gauge("kubevirt_hco_upgrade_in_progress", "1 while an install or upgrade of the stack is in progress",
                Tags.empty(), upgradeInProgress);
        gauge("kubevirt_hco_hyperconverged_cr_exists", "1 when the HyperConverged singleton exists", Tags.empty(),
                crExists);
        gauge("kubevirt_hco_system_health_status", "Upstream's meaning, from the HyperConverged conditions: 0 healthy, "
                + "1 warning (ReconcileComplete not True, or Progressing), 2 error (not Available, or Degraded)",
                Tags.empty(), systemHealth);
        gauge("kubevirt_hco_gate_stabilizing", "1 while everything holds but the stabilization window still runs",
                Tags.empty(), stabilizing);
    }

    public synchronized void record(GateInput input, GateDecision decision, java.util.List<io.kubevirt.hco.core.Condition> conditions) {
        register();
        upgradeable.set(decision.upgradeable() ? 1 : 0);
        upgradeInProgress.set(decision.assessment().upgrade().inProgress() && input.hyperConverged().present() ? 1 : 0);
        crExists.set(input.hyperConverged().present() ? 1 : 0);
        stabilizing.set(decision.reason() == GateReason.Stabilizing ? 1 : 0);
        for (GateInput.Component c : input.components()) {
            String name = c.expectation().component();
            Blocker blocker = decision.assessment().blockerOf(name);
            perComponent(componentReady, "kubevirt_hco_component_ready",
                    "1 when the component converged (blocks nothing), else 0", name).set(blocker == null ? 1 : 0);
            boolean versionMatches = c.expectation().expectedVersion() != null
                    && c.expectation().expectedVersion().equals(c.observation().observedVersion());
            perComponent(componentVersionMatch, "kubevirt_hco_component_version_match",
                    "1 when the component reports the expected version as observed", name).set(versionMatches ? 1 : 0);
        }
        systemHealth.set(health(input, decision, conditions));
    }

    /**
     * Upstream's meaning, from the HyperConverged conditions this decision yields. With no
     * HyperConverged there are no such conditions: healthy when nothing is installed (upstream's
     * HCOInstallationIncomplete reports the missing CR), warning when component CRs were left behind.
     */
    private static int health(GateInput input, GateDecision decision, java.util.List<io.kubevirt.hco.core.Condition> conditions) {
        if (!input.hyperConverged().present()) {
            return decision.upgradeable() ? SystemHealth.HEALTHY.value() : SystemHealth.WARNING.value();
        }
        return SystemHealth.of(conditions).value();
    }

    /** Time the gate spent closed, attributed to the reason it was closed for. */
    public void closedFor(GateReason reason, java.time.Duration duration) {
        if (!duration.isNegative() && !duration.isZero()) {
            io.micrometer.core.instrument.Counter.builder("kubevirt_hco_gate_closed_seconds")
                    .description("Seconds the gate was closed, by the reason it was closed for").tag("reason", reason.name())
                    .register(registry).increment(duration.toNanos() / 1e9);
        }
    }

    /** An install or upgrade completed: from when this process first saw it in progress. */
    public void upgradeCompleted(String phase, java.time.Duration duration) {
        io.micrometer.core.instrument.Timer.builder("kubevirt_hco_upgrade_duration")
                .description("Time from an install or upgrade being seen in progress to its version being recorded")
                .tag("kind", phase.equals("INSTALLING") ? "install" : "upgrade")
                .publishPercentileHistogram()
                .minimumExpectedValue(java.time.Duration.ofSeconds(1))
                .maximumExpectedValue(java.time.Duration.ofHours(6))
                .register(registry).record(duration);
    }

    /** During the last install or upgrade, how long after it started each component converged. */
    public void componentConverged(String component, java.time.Duration afterStart) {
        boolean first = convergenceSeconds.put(component, afterStart.toMillis() / 1000.0) == null;
        if (first) {
            io.micrometer.core.instrument.Gauge.builder("kubevirt_hco_component_convergence_seconds", convergenceSeconds,
                    m -> m.getOrDefault(component, Double.NaN))
                    .description("During the last install or upgrade, seconds from its start until the component converged")
                    .tag("component", component).register(registry);
        }
    }

    public io.micrometer.core.instrument.Timer evaluationTimer() {
        return io.micrometer.core.instrument.Timer.builder("kubevirt_hco_gate_evaluation")
                .description("Time to take one gate decision on a snapshot").register(registry);
    }

    private final Map<String, Double> convergenceSeconds = new ConcurrentHashMap<>();

    public void transition(GateReason reason, boolean open) {
        io.micrometer.core.instrument.Counter.builder("kubevirt_hco_gate_transitions")
                .description("Gate transitions, by the reason and value they moved to").tag("reason", reason.name())
                .tag("upgradeable", Boolean.toString(open)).register(registry).increment();
    }

    public void outOfBandModification(String component) {
        io.micrometer.core.instrument.Counter.builder("kubevirt_hco_out_of_band_modifications")
                .description("Out-of-band edits of a component CR's spec that were reverted (upstream meaning)")
                .tag("component_name", component).register(registry).increment();
    }

    /**
     * Upstream's kubevirt_hco_unsafe_modifications: operations per JSON patch annotation of the
     * HyperConverged; an annotation that went away drops to 0.
     */
    public void unsafeModifications(Map<String, Integer> operationsByAnnotation) {
        unsafe.keySet().forEach(name -> unsafe.get(name).set(operationsByAnnotation.getOrDefault(name, 0)));
        operationsByAnnotation.forEach((name, count) -> unsafe.computeIfAbsent(name,
                n -> gauge("kubevirt_hco_unsafe_modifications", "Count of unsafe modifications in the HyperConverged annotations",
                        Tags.of("annotation_name", n), new AtomicInteger())).set(count));
    }

    private final Map<String, AtomicInteger> unsafe = new ConcurrentHashMap<>();

    /**
     * Time spent in one phase of a reconcile pass (apply, snapshot, decide, confirm,
     * operator-condition, status): where the gate's reaction time goes beyond the API server's own
     * round trip (the bench prints them).
     */
    public io.micrometer.core.instrument.Timer phaseTimer(String phase) {
        return phaseTimers.computeIfAbsent(phase, p -> io.micrometer.core.instrument.Timer
                .builder("kubevirt_hco_reconcile_phase")
                .description("Time spent in one phase of a reconcile pass").tag("phase", p).register(registry));
    }

    private final Map<String, io.micrometer.core.instrument.Timer> phaseTimers = new ConcurrentHashMap<>();

    /** Records {@code phase} as having run from {@code startedNanos} ({@link System#nanoTime()}) to now; returns now. */
    public long phaseDone(String phase, long startedNanos) {
        long now = System.nanoTime();
        phaseTimer(phase).record(now - startedNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        return now;
    }

    public void openingConfirmed() {
        io.micrometer.core.instrument.Counter.builder("kubevirt_hco_gate_opening_confirmations")
                .description("Decisions to open the gate that were re-taken on fresh reads before being published")
                .register(registry).increment();
    }

    /** A round of confirmation reads sent ahead of a planned opening: used by it, or dropped (too old, or the caches differed). */
    public void confirmationReadsAhead(boolean used) {
        io.micrometer.core.instrument.Counter.builder("kubevirt_hco_gate_confirmation_reads_ahead")
                .description("Rounds of confirmation reads sent ahead of a planned opening, by whether the opening could use them")
                .tag("outcome", used ? "used" : "dropped").register(registry).increment();
    }

    /** An opening prepared ahead of the window's end: published at that instant, or abandoned (the caches changed meanwhile). */
    public void preparedOpening(boolean published) {
        io.micrometer.core.instrument.Counter.builder("kubevirt_hco_gate_prepared_openings")
                .description("Openings prepared ahead of the end of the stabilization window, by whether they were published")
                .tag("outcome", published ? "published" : "abandoned").register(registry).increment();
    }

    /** A component's change closed the gate from its informer's event, ahead of the pass the event wakes. */
    public void closedFromEvent() {
        io.micrometer.core.instrument.Counter.builder("kubevirt_hco_gate_closed_from_event")
                .description("Closings published from a component's watch event, ahead of the reconcile it wakes")
                .register(registry).increment();
    }

    public void operatorConditionWriteFailed() {
        io.micrometer.core.instrument.Counter.builder("kubevirt_hco_operator_condition_write_failures")
                .description("Failed writes of the Upgradeable condition to OLM's OperatorCondition").register(registry)
                .increment();
    }

    private AtomicInteger perComponent(Map<String, AtomicInteger> gauges, String metric, String help,
            String component) {
        return gauges.computeIfAbsent(component, c -> gauge(metric, help, Tags.of("component", c), new AtomicInteger()));
    }

    private AtomicInteger gauge(String metric, String help, Tags tags, AtomicInteger value) {
        io.micrometer.core.instrument.Gauge.builder(metric, value, AtomicInteger::get).description(help).tags(tags)
                .register(registry);
        return value;
    }
}
