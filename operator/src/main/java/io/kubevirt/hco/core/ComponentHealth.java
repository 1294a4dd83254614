package io.kubevirt.hco.core;

import static io.kubevirt.hco.core.ConditionTypes.AVAILABLE;
import static io.kubevirt.hco.core.ConditionTypes.DEGRADED;
import static io.kubevirt.hco.core.ConditionTypes.PROGRESSING;

import java.util.Optional;

/**
 * Decides whether one component has converged: exists, reports all three conditions with the
 * good polarity, provably observed the spec last written, and reports the expected version.
 * A missing piece of evidence is a blocker, never a pass.
 */
public final class ComponentHealth {


    private ComponentHealth() {
    }

    /** No rule reads a clock: every piece of evidence is ordered by the API server. */
    public static Optional<Blocker> evaluate(ComponentExpectation expected, ComponentObservation seen) {
        String name = expected.component();
        Blocker blocker = notReporting(name, seen);
        if (blocker == null) {
            blocker = stale(expected, seen);
        }
        if (blocker == null) {
            blocker = unhealthy(name, seen);
        }
        if (blocker == null) {
            blocker = versionMismatch(expected, seen);
        }
        return Optional.ofNullable(blocker);
    }

    private static Blocker notReporting(String name, ComponentObservation seen) {
        if (!seen.present() && seen.problem() != null) {
            return new Blocker(name, GateReason.ComponentCrdMissing, seen.problem());
        }
        if (!seen.present()) {
            return new Blocker(name, GateReason.ComponentNotReporting, "its CR does not exist");
        }
        if (seen.problem() != null) {
            return new Blocker(name, GateReason.ComponentNotReporting, "its status cannot be read: " + seen.problem());
        }
        if (seen.conditions().isEmpty()) {
            return new Blocker(name, GateReason.ComponentNotReporting, "has no conditions yet");
        }
        for (String type : new String[] { AVAILABLE, PROGRESSING, DEGRADED }) {
            if (seen.condition(type) == null) {
                return new Blocker(name, GateReason.ComponentNotReporting, "has not reported the " + type + " condition");
            }
        }
        return null;
    }

    private static Blocker stale(ComponentExpectation expected, ComponentObservation seen) {
        String name = expected.component();
        WriteRecord write = expected.lastWrite();
        if (write != null && !ResourceVersions.atOrAfter(seen.resourceVersion(), write.resourceVersion())) {
            return new Blocker(name, GateReason.ComponentStale, "snapshot resourceVersion " + seen.resourceVersion()
                    + " predates this operator's last write (resourceVersion " + write.resourceVersion() + ")");
        }
        if (seen.spec() == null) {
            return new Blocker(name, GateReason.ComponentStale, "its spec has not been compared with the desired one yet");
        }
        if (!seen.spec().inSync()) {
            return new Blocker(name, GateReason.ComponentStale,
                    "its spec does not hold what the HyperConverged implies yet (not written yet, or changed outside it); it is being applied");
        }
        return switch (expected.evidence()) {
            case OBSERVED_GENERATION -> generationNotObserved(name, write, seen);
            case STATUS_WRITTEN_AFTER_SPEC -> statusNotWrittenSinceSpecWrite(name, seen);
        };
    }

    private static Blocker generationNotObserved(String name, WriteRecord write, ComponentObservation seen) {
        if (seen.generation() == null) {
            return new Blocker(name, GateReason.ComponentStale, "its CR has no metadata.generation");
        }
        long generation = seen.generation();
        if (write != null && generation < write.generation()) {
            return new Blocker(name, GateReason.ComponentStale, "snapshot generation " + generation
                    + " predates the written generation " + write.generation());
        }
        if (seen.observedGeneration() == null) {
            return new Blocker(name, GateReason.ComponentStale, "reports no status.observedGeneration");
        }
        if (seen.observedGeneration() != generation) {
            return new Blocker(name, GateReason.ComponentStale, "has observed generation " + seen.observedGeneration()
                    + " of " + generation);
        }
        for (String type : new String[] { AVAILABLE, PROGRESSING, DEGRADED }) {
            Long conditionGeneration = seen.condition(type).observedGeneration();
            if (conditionGeneration != null && conditionGeneration != generation) {
                return new Blocker(name, GateReason.ComponentStale, "its " + type + " condition is for generation "
                        + conditionGeneration + " of " + generation);
            }
        }
        return null;
    }

    private static Blocker statusNotWrittenSinceSpecWrite(String name, ComponentObservation seen) {
        SpecState spec = seen.spec();
        if (spec.statusAtSpecWrite() == null) {
            return new Blocker(name, GateReason.ComponentStale,
                    "carries no record of its status at this operator's last spec write");
        }
        if (!spec.statusWrittenSinceSpecWrite()) {
            return new Blocker(name, GateReason.ComponentStale,
                    "has not written its status since the spec was last written (status " + spec.statusFingerprint()
                            + " unchanged)");
        }
        return null;
    }

    private static Blocker unhealthy(String name, ComponentObservation seen) {
        Condition available = seen.condition(AVAILABLE);
        if (!available.isTrue()) {
            return new Blocker(name, GateReason.ComponentUnavailable, "Available=" + available.status() + detail(available));
        }
        Condition degraded = seen.condition(DEGRADED);
        if (!degraded.isFalse()) {
            return new Blocker(name, GateReason.ComponentDegraded, "Degraded=" + degraded.status() + detail(degraded));
        }
        Condition progressing = seen.condition(PROGRESSING);
        if (!progressing.isFalse()) {
            return new Blocker(name, GateReason.ComponentProgressing,
                    "Progressing=" + progressing.status() + detail(progressing));
        }
        if (Boolean.TRUE.equals(seen.paused())) {
            return new Blocker(name, GateReason.ComponentProgressing, "is paused");
        }
        return null;
    }

    private static Blocker versionMismatch(ComponentExpectation expected, ComponentObservation seen) {
        String name = expected.component();
        String want = expected.expectedVersion();
        if (want == null || want.isBlank()) {
            return new Blocker(name, GateReason.ComponentVersionMismatch, "no expected version is configured");
        }
        if (!want.equals(seen.observedVersion())) {
            return new Blocker(name, GateReason.ComponentVersionMismatch,
                    "observed version " + quoted(seen.observedVersion()) + ", expected " + quoted(want));
        }
        if (expected.reportsTargetVersion() && !want.equals(seen.targetVersion())) {
            return new Blocker(name, GateReason.ComponentVersionMismatch,
                    "target version " + quoted(seen.targetVersion()) + ", expected " + quoted(want));
        }
        return null;
    }

    private static String detail(Condition c) {
        String reason = c.reason() == null ? "" : c.reason();
        String message = c.message() == null ? "" : c.message();
        if (reason.isEmpty() && message.isEmpty()) {
            return "";
        }
        return " (" + reason + (reason.isEmpty() || message.isEmpty() ? "" : ": ") + message + ")";
    }

    private static String quoted(String v) {
        return v == null ? "none" : "\"" + v + "\"";
    }
}
