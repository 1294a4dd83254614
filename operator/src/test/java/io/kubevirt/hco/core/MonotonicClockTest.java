package io.kubevirt.hco.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** The gate's clock advances with the monotonic tick only: a wall clock stepped forward opens nothing early. */
class MonotonicClockTest {

    private static final Instant START = Instant.parse("2026-12-05T10:00:00Z");

    @Test
    void itAdvancesByTheTickAndNothingElse() {
        AtomicLong ticks = new AtomicLong(42);
        MonotonicClock clock = new MonotonicClock(START, ticks::get);
        assertThat(clock.instant()).isEqualTo(START);

        ticks.addAndGet(Duration.ofSeconds(3).toNanos());
        assertThat(clock.instant()).isEqualTo(START.plusSeconds(3));
    }

    @Test
    void aStabilizationWindowIsNotShortenedByAWallClockStep() {
        AtomicLong ticks = new AtomicLong();
        MonotonicClock clock = new MonotonicClock(START, ticks::get);
        Duration window = Duration.ofSeconds(30);
        Assessment open = new Assessment(GateReason.AsExpected, "converged", java.util.List.of(), null, true);

        GateDecision first = Stabilizer.decide(open, null, window, clock.instant());
        // ten seconds of ticks: whatever the wall clock did meanwhile (an NTP step), the window has 20 s to go
        ticks.addAndGet(Duration.ofSeconds(10).toNanos());
        GateDecision second = Stabilizer.decide(open, first.openSince(), window, clock.instant());

        assertThat(second.upgradeable()).isFalse();
        assertThat(second.reason()).isEqualTo(GateReason.Stabilizing);
        assertThat(second.recheckAfter()).isEqualTo(Duration.ofSeconds(20));
    }

}
