package io.kubevirt.hco.gate;

import static io.kubevirt.hco.gate.GateServiceOpeningTest.converged;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.core.GateReason;
import io.kubevirt.hco.lifecycle.ProcessLifecycle;

/**
 * An opening due within a few milliseconds is prepared by the pass that finds it due: decided as of
 * the window's end, confirmed, and published at that instant only if the caches did not change in
 * the meantime. The clock here stands still while the gate waits, so the wait is the real time left
 * until the window's end, which the assertions bound from below.
 */
class PreparedOpeningTest {

    static final Duration WINDOW = Duration.ofSeconds(2);
    static final Instant CONVERGED_AT = GateServiceOpeningTest.NOW;
    static final Instant WINDOW_END = CONVERGED_AT.plus(WINDOW);

    final SettableClock clock = new SettableClock(CONVERGED_AT);
    final List<String> written = new ArrayList<>();
    final List<Long> writtenAtNanos = new ArrayList<>();
    GateService gate;
    GateServiceOpeningTest.QuietMetrics metrics;

    @BeforeEach
    void gateStabilizing() {
        ProcessLifecycle lifecycle = new ProcessLifecycle(GateServiceOpeningTest.settings(WINDOW), clock);
        metrics = new GateServiceOpeningTest.QuietMetrics();
        gate = GateServiceOpeningTest.gateService(GateServiceOpeningTest.settings(WINDOW), lifecycle, metrics, w -> {
            written.add(w);
            writtenAtNanos.add(System.nanoTime());
        });
        // the pass that finds the stack converged: the window starts, its end is far off, nothing is prepared
        GateDecision first = gate.verdict(converged(3).at(CONVERGED_AT), null, () -> converged(3),
                neverChecked("an opening 2 s away is not prepared")).decision();
        assertThat(first.reason()).isEqualTo(GateReason.Stabilizing);
        assertThat(first.recheckAfter()).isEqualTo(WINDOW);
    }

    @Test
    void aPassShortlyBeforeTheWindowsEndPublishesTheOpeningAtThatInstant() {
        Instant pass = WINDOW_END.minus(GateService.PREPARE_LEAD);
        clock.set(pass);
        long passStarted = System.nanoTime();
        long[] checkedAt = new long[1];

        GateService.Verdict v = gate.verdict(converged(3).at(pass), null, () -> converged(3).at(pass), () -> {
            checkedAt[0] = System.nanoTime();
            return true;
        });

        assertThat(v.decision().upgradeable()).isTrue();
        assertThat(written).containsExactly("False/Initializing", "False/Stabilizing", "True/AsExpected");
        assertThat(v.input().now()).as("published as of the window's end").isEqualTo(WINDOW_END);
        assertThat(gate.currentSince()).isEqualTo(WINDOW_END);
        long lead = GateService.PREPARE_LEAD.toNanos();
        assertThat(checkedAt[0] - passStarted).as("the caches are checked once the window is over").isGreaterThanOrEqualTo(lead);
        assertThat(writtenAtNanos.get(2) - passStarted).as("True is written once the window is over")
                .isGreaterThanOrEqualTo(lead);
        assertThat(metrics.prepared).containsExactly(true);
    }

    @Test
    void anEventDuringTheWaitAbandonsThePreparedOpening() {
        Instant pass = WINDOW_END.minus(GateService.PREPARE_LEAD);
        clock.set(pass);

        GateService.Verdict v = gate.verdict(converged(3).at(pass), null, () -> converged(3).at(pass), () -> false);

        assertThat(v.decision().upgradeable()).isFalse();
        assertThat(v.decision().reason()).isEqualTo(GateReason.Stabilizing);
        assertThat(v.decision().recheckAfter()).as("the next pass comes at the window's end").isEqualTo(GateService.PREPARE_LEAD);
        assertThat(v.input().now()).as("the pass's own instant").isEqualTo(pass);
        // (the stub writer records the unchanged decision too: the real one compares with the object)
        assertThat(written).containsExactly("False/Initializing", "False/Stabilizing", "False/Stabilizing");
        assertThat(metrics.prepared).containsExactly(false);

        // the next pass, past the window's end on caches that still show the stack converged, opens as before
        Instant later = WINDOW_END.plusMillis(1);
        clock.set(later);
        GateDecision next = gate.verdict(converged(3).at(later), null, () -> converged(3).at(later), () -> true).decision();
        assertThat(next.upgradeable()).isTrue();
        assertThat(metrics.prepared).as("nothing left to prepare").containsExactly(false);
    }

    @Test
    void anOpeningDueLaterThanThePassCanPrepareWaitsForTheNextPass() {
        Instant pass = WINDOW_END.minus(GateService.PREPARE_WITHIN).minusMillis(1);
        clock.set(pass);
        BooleanSupplier unused = neverChecked("not prepared: nothing to check");

        GateDecision d = gate.verdict(converged(3).at(pass), null, () -> converged(3), unused).decision();

        assertThat(d.reason()).isEqualTo(GateReason.Stabilizing);
        assertThat(written).containsExactly("False/Initializing", "False/Stabilizing", "False/Stabilizing");
        assertThat(metrics.prepared).isEmpty();
    }

    @Test
    void freshReadsThatCloseArePublishedAtOnceAtTheirOwnInstant() {
        Instant pass = WINDOW_END.minus(GateService.PREPARE_LEAD);
        clock.set(pass);
        BooleanSupplier unused = neverChecked("closed on the fresh reads: no wait, no check");

        GateService.Verdict v = gate.verdict(converged(3).at(pass), null, () -> converged(4).at(pass), unused);

        assertThat(v.decision().reason()).isEqualTo(GateReason.HyperConvergedNotObserved);
        assertThat(v.input().now()).isEqualTo(pass);
        assertThat(written).containsExactly("False/Initializing", "False/Stabilizing", "False/HyperConvergedNotObserved");
        assertThat(metrics.prepared).isEmpty();
    }

    @Test
    void anInterruptedWaitOpensNothing() {
        Instant pass = WINDOW_END.minus(GateService.PREPARE_LEAD);
        clock.set(pass);
        Thread.currentThread().interrupt();
        try {
            GateDecision d = gate.verdict(converged(3).at(pass), null, () -> converged(3).at(pass), () -> true).decision();
            assertThat(d.upgradeable()).isFalse();
            assertThat(written).doesNotContain("True/AsExpected");
            assertThat(metrics.prepared).containsExactly(false);
        } finally {
            Thread.interrupted();
        }
    }

    private static BooleanSupplier neverChecked(String why) {
        return () -> {
            throw new AssertionError(why);
        };
    }

    /** A clock that moves only when told. */
    static final class SettableClock extends Clock {
        private volatile Instant now;

        SettableClock(Instant now) {
            this.now = now;
        }

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
