package io.kubevirt.hco.lifecycle;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.MonotonicClock;

/**
 * Where this process stands: its version, whether it leads, whether it has completed a full
 * reconcile since it started, whether it is shutting down, and the clock decisions are taken on.
 * Process-local on purpose: a new process starts as a standby that has reconciled nothing, which
 * keeps the gate closed (Initializing).
 */
@ApplicationScoped
public class ProcessLifecycle {

    @Inject
    OperatorSettings settings;

    /** Monotonic: a step of the wall clock (NTP) neither shortens nor stretches the stabilization window. */
    Clock clock = MonotonicClock.startingNow();

    private volatile boolean fullReconcileDone;
    private volatile boolean leader;
    private volatile boolean shuttingDown;
    private final List<Runnable> leadershipListeners = new CopyOnWriteArrayList<>();

    public ProcessLifecycle() {
    }

    /** A lifecycle on its own settings and clock (tests). */
    public ProcessLifecycle(OperatorSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    public String operatorVersion() {
        return settings.operatorVersion().filter(v -> !v.isBlank()).orElse(null);
    }

    public Instant now() {
        return clock.instant();
    }

    /**
     * Returns once this clock reads {@code instant} or later: true, or false at once if the thread
     * is interrupted meanwhile (shutdown). The time left is read once and then waited on the
     * monotonic tick, so a clock that does not move (tests) waits that long and no more.
     */
    public boolean awaitInstant(Instant instant) {
        long left = java.time.Duration.between(now(), instant).toNanos();
        long deadline = System.nanoTime() + left;
        while (left > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(left);
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
            left = deadline - System.nanoTime();
        }
        return true;
    }

    public void leadership(boolean isLeader) {
        this.leader = isLeader;
        if (isLeader) {
            leadershipListeners.forEach(Runnable::run);
        }
    }

    /** Runs {@code listener} each time this process becomes the leader (work that only the leader does may start). */
    public void onLeadership(Runnable listener) {
        leadershipListeners.add(listener);
        if (leader) {
            listener.run();
        }
    }

    public boolean leader() {
        return leader;
    }

    public void shutdownStarted() {
        shuttingDown = true;
    }

    public boolean shuttingDown() {
        return shuttingDown;
    }

    public void fullReconcileDone() {
        fullReconcileDone = true;
    }

    public boolean isFullReconcileDone() {
        return fullReconcileDone;
    }
}
