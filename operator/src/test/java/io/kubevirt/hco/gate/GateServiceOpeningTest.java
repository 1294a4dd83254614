package io.kubevirt.hco.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.ComponentExpectation;
import io.kubevirt.hco.core.ComponentObservation;
import io.kubevirt.hco.core.Condition;
import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.core.GateInput;
import io.kubevirt.hco.core.GateReason;
import io.kubevirt.hco.core.HyperConvergedObservation;
import io.kubevirt.hco.core.ObservationEvidence;
import io.kubevirt.hco.core.SpecState;
import io.kubevirt.hco.observability.GateEvents;
import io.kubevirt.hco.observability.GateMetrics;

/**
 * The shell's rule for opening: a decision that would turn a closed gate open is taken again on
 * fresh reads, and only that decision is published. This is what gives HyperConvergedNotObserved
 * its meaning (before, it compared the cached HyperConverged with itself and could never fire).
 */
class GateServiceOpeningTest {

    static final String V = "1.0.0";
    static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");

    GateService gate;
    io.kubevirt.hco.lifecycle.ProcessLifecycle lifecycle;
    final List<String> written = new ArrayList<>();
    int freshReads;
    /** What the stub writer says of OLM's watched copy: still what was written, or changed by someone. */
    static volatile boolean olmCopyUnchanged = true;

    @BeforeEach
    void gate() {
        olmCopyUnchanged = true;
        lifecycle = new io.kubevirt.hco.lifecycle.ProcessLifecycle(settings(), java.time.Clock.fixed(NOW, java.time.ZoneOffset.UTC));
        gate = gateService(settings(), lifecycle, new QuietMetrics(), written::add);
    }

    /**
     * A leading gate that has held at start-up, over a stub OperatorCondition writer that hands each
     * write ("True/AsExpected", "False/Stabilizing"...) to {@code writes}.
     */
    static GateService gateService(OperatorSettings settings, io.kubevirt.hco.lifecycle.ProcessLifecycle lifecycle,
            QuietMetrics metrics, java.util.function.Consumer<String> writes) {
        GatePublisher publisher = new GatePublisher();
        publisher.writer = new OperatorConditionWriter() {
            @Override
            public synchronized boolean write(boolean upgradeable, String reason, String message) {
                writes.accept((upgradeable ? "True/" : "False/") + reason);
                return true;
            }

            @Override
            public boolean enabled() {
                return true;
            }

            @Override
            public boolean watchedCopySaysWhatWasWritten() {
                return olmCopyUnchanged;
            }

            @Override
            public Optional<String> name() {
                return Optional.of("oc");
            }
        };
        publisher.metrics = metrics;
        publisher.events = new GateEvents() {
            @Override
            public void transition(GateDecision previous, GateDecision next, HasMetadata target) {
            }
        };
        publisher.lifecycle = lifecycle;
        GateService gate = new GateService();
        gate.settings = settings;
        gate.lifecycle = lifecycle;
        gate.publisher = publisher;
        gate.metrics = metrics;
        lifecycle.leadership(true);
        lifecycle.fullReconcileDone();
        assertThat(publisher.holdAtStartup()).isTrue();
        return gate;
    }

    @Test
    void aHyperConvergedChangedSinceThePassAppliedItIsNotObservedAndTheGateStaysClosed() {
        GateDecision d = gate.evaluate(converged(3), null, counted(() -> converged(4)));
        assertThat(d.upgradeable()).isFalse();
        assertThat(d.reason()).isEqualTo(GateReason.HyperConvergedNotObserved);
        assertThat(d.message()).contains("generation 4", "observed 3");
        assertThat(written).containsExactly("False/Initializing", "False/HyperConvergedNotObserved");
    }

    @Test
    void aFailedFreshReadClosesTheGate() {
        GateDecision d = gate.evaluate(converged(3), null, counted(() -> {
            throw new IllegalStateException("503 from the API server");
        }));
        assertThat(d.reason()).isEqualTo(GateReason.EvaluationError);
        assertThat(d.message()).contains("confirming the decision on fresh reads failed", "503");
        assertThat(written).last().isEqualTo("False/EvaluationError");
    }

    @Test
    void onlyAnOpeningIsConfirmedOnFreshReads() {
        assertThat(gate.evaluate(converged(3), null, counted(() -> converged(3))).upgradeable()).isTrue();
        assertThat(freshReads).isOne();
        assertThat(gate.evaluate(converged(3), null, counted(() -> converged(3))).upgradeable()).isTrue();
        assertThat(freshReads).as("already open: no fresh read").isOne();
        // an unchanged decision is re-asserted (the real writer compares with the live object)
        assertThat(written).containsExactly("False/Initializing", "True/AsExpected", "True/AsExpected");
    }

    @Test
    void reassertingTrueIntoAnOperatorConditionSomeoneElseChangedIsConfirmedOnFreshReads() {
        assertThat(gate.evaluate(converged(3), null, counted(() -> converged(3))).upgradeable()).isTrue();
        // emptied while the API server was away, and the HyperConverged changed meanwhile: the pass
        // the emptied copy wakes still has the old HyperConverged in its cache
        olmCopyUnchanged = false;
        GateDecision d = gate.evaluate(converged(3), null, counted(() -> converged(4)));
        assertThat(freshReads).isEqualTo(2);
        assertThat(d.upgradeable()).isFalse();
        assertThat(d.reason()).isEqualTo(GateReason.HyperConvergedNotObserved);
        assertThat(written).containsExactly("False/Initializing", "True/AsExpected", "False/HyperConvergedNotObserved");
    }

    @Test
    void aFrozenCacheClosesAnOpenGateAndKeepsEveryLaterDecisionClosed() {
        assertThat(gate.evaluate(converged(3), null).upgradeable()).isTrue();

        gate.cacheFrozen("the watch of cdis stopped with an error");
        assertThat(written).last().isEqualTo("False/EvaluationError");
        assertThat(gate.current().message()).contains("the watch of cdis stopped");

        GateDecision later = gate.evaluate(converged(3), null, counted(() -> converged(3)));
        assertThat(later.upgradeable()).isFalse();
        assertThat(later.reason()).isEqualTo(GateReason.EvaluationError);
    }

    @Test
    void aHyperConvergedAppearingTakesBackNothingInstalledAtOnce() {
        GateInput nothing = new GateInput(NOW, V, true, true, HyperConvergedObservation.absent(), List.of(), null);
        assertThat(gate.evaluate(nothing, null).reason()).isEqualTo(GateReason.NoStackInstalled);
        assertThat(written).last().isEqualTo("True/NoStackInstalled");

        gate.stackAppeared(new HyperConvergedObservation(true, false, 1, null, null));
        assertThat(gate.current().upgradeable()).isFalse();
        assertThat(written).last().asString().startsWith("False/");
        int writes = written.size();

        // once closed, a second sighting (the informer's resync) writes nothing more
        gate.stackAppeared(new HyperConvergedObservation(true, false, 1, null, null));
        assertThat(written).hasSize(writes);
    }

    private Supplier<GateInput> counted(Supplier<GateInput> read) {
        return () -> {
            freshReads++;
            return read.get();
        };
    }

    /** A stack converged on the HyperConverged generation {@code generation}, as this pass applied generation 3. */
    static GateInput converged(long generation) {
        List<GateInput.Component> components = new ArrayList<>();
        for (String name : List.of("KubeVirt", "SSP")) {
            List<Condition> conditions = List.of(Condition.of("Available", "True"), Condition.of("Progressing", "False"),
                    Condition.of("Degraded", "False"));
            components.add(new GateInput.Component(
                    new ComponentExpectation(name, V, ObservationEvidence.OBSERVED_GENERATION, true, null),
                    new ComponentObservation(true, "10", 2L, 2L, V, V, conditions, false,
                            new SpecState(true, "a", "b"), null)));
        }
        return new GateInput(NOW, V, true, true, new HyperConvergedObservation(true, false, generation, 3L, V),
                components, null);
    }

    private static OperatorSettings settings() {
        return settings(Duration.ZERO);
    }

    static OperatorSettings settings(Duration window) {
        return new OperatorSettings() {
            public String namespace() {
                return "ns";
            }

            public Optional<String> operatorVersion() {
                return Optional.of(V);
            }

            public Optional<String> operatorConditionName() {
                return Optional.of("oc");
            }

            public Gate gate() {
                return new Gate() {
                    public Duration stabilizationWindow() {
                        return window;
                    }

                    public GateMode mode() {
                        return GateMode.OPERATOR_CONDITION;
                    }

                    public Duration idlePollInterval() {
                        return Duration.ofSeconds(10);
                    }

                    public Duration reassertInterval() {
                        return Duration.ofSeconds(60);
                    }

                    public Duration writeRetryInterval() {
                        return Duration.ofSeconds(2);
                    }
                };
            }

            public Components components() {
                return null;
            }

            public LeaderElection leaderElection() {
                return null;
            }

            public Metrics metrics() {
                return null;
            }

            public Dev dev() {
                return null;
            }
        };
    }

    /** Metrics without a registry: this test is about what is published, not what is counted. */
    static final class QuietMetrics extends GateMetrics {
        final io.micrometer.core.instrument.MeterRegistry local = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();

        @Override
        public synchronized void record(GateInput input, GateDecision decision, List<Condition> conditions) {
        }

        @Override
        public void closedFor(GateReason reason, Duration duration) {
        }

        @Override
        public void transition(GateReason reason, boolean open) {
        }

        /** Closings published from a component's event. */
        int closedFromEvent;

        @Override
        public void closedFromEvent() {
            closedFromEvent++;
        }

        /** Prepared openings, in order: true when published. */
        final List<Boolean> prepared = new ArrayList<>();

        @Override
        public void openingConfirmed() {
        }

        @Override
        public void preparedOpening(boolean published) {
            prepared.add(published);
        }

        @Override
        public void operatorConditionWriteFailed() {
            throw new AssertionError("no write fails in this test");
        }

        @Override
        public io.micrometer.core.instrument.Timer evaluationTimer() {
            return local.timer("evaluation");
        }

        @Override
        public io.micrometer.core.instrument.Timer phaseTimer(String phase) {
            return local.timer("phase", "phase", phase);
        }
    }
}
