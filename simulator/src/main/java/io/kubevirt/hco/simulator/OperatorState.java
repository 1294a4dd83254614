package io.kubevirt.hco.simulator;

import java.time.Instant;

import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;

/** One simulated component operator's memory: how it behaves, what it runs, what it last looked at and reported. */
final class OperatorState {
    volatile Behaviour behaviour = Behaviour.HEALTHY;
    volatile String runningVersion;
    volatile String reportedVersion;
    volatile ComponentHabits habits = ComponentHabits.PLAIN;
    /** The spec (fingerprint) it last looked at, and the CR generation it had then. */
    volatile String processedSpec;
    volatile Long processedGeneration;
    /** When it first saw the spec it has not looked at yet (slow followers). */
    volatile Instant pendingSince;
    volatile String refreshedFor;
    /** The part of the spec it renders, as it last looked at it. */
    volatile String processedRendered;
    /** Until when its operands roll after a change of what it renders. */
    volatile Instant rollingUntil;
    /** The rendered spec its last written status reflects: ground truth for {@link ComponentSimulator#converged}. */
    volatile String reportedSpec;

    /**
     * What each status write claimed, by the resourceVersion the API server gave it (oldest first,
     * bounded): the ground truth as the cluster showed it at any revision since.
     */
    private final java.util.ArrayDeque<Written> written = new java.util.ArrayDeque<>();
    static final int WRITES_KEPT = 4096;

    /** One status write: the revision it made, the version it reported and ran, the rendered spec it reflected. */
    record Written(long resourceVersion, String reportedVersion, String runningVersion, String reportedSpec) {
    }

    OperatorState(String version) {
        this.runningVersion = version;
    }

    /** Its status reflects {@code rendered} at the version it runs, or (null) no spec at all. */
    void reported(String rendered) {
        reportedVersion = rendered == null ? null : runningVersion;
        reportedSpec = rendered;
    }

    synchronized void wrote(long resourceVersion) {
        if (written.size() == WRITES_KEPT) {
            written.removeFirst();
        }
        written.addLast(new Written(resourceVersion, reportedVersion, runningVersion, reportedSpec));
    }

    /** The last write at or before {@code resourceVersion}; null when none is kept. */
    synchronized Written writtenAsOf(long resourceVersion) {
        var it = written.descendingIterator();
        while (it.hasNext()) {
            Written w = it.next();
            if (w.resourceVersion() <= resourceVersion) {
                return w;
            }
        }
        return null;
    }
}
