package io.kubevirt.hco.core;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.LongSupplier;

/**
 * A clock that reads the wall clock once and then only advances with the monotonic tick
 * ({@link System#nanoTime()}): durations measured on it (the stabilization window, upgrade
 * timings) are immune to the wall clock being stepped by NTP or by hand. Its instants stay within
 * the steps made since it started of the wall clock's, which is all a log line needs.
 */
public final class MonotonicClock extends Clock {

    private final Instant origin;
    private final long originTicks;
    private final LongSupplier ticks;

    MonotonicClock(Instant origin, LongSupplier nanoTicks) {
        this.origin = origin;
        this.ticks = nanoTicks;
        this.originTicks = nanoTicks.getAsLong();
    }

    public static MonotonicClock startingNow() {
        return new MonotonicClock(Instant.now(), System::nanoTime);
    }

    @Override
    public Instant instant() {
        return origin.plusNanos(ticks.getAsLong() - originTicks);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a monotonic clock has no zone of its own");
    }
}
