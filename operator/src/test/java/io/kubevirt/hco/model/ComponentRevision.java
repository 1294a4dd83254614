package io.kubevirt.hco.model;

import java.util.List;
import java.util.Objects;

import io.kubevirt.hco.core.ComponentObservation;
import io.kubevirt.hco.core.Condition;
import io.kubevirt.hco.core.SpecState;

/**
 * One revision of a component CR in the model's API server: its spec (which HyperConverged
 * generation it was derived from, or -1 when someone edited it out of band), the fingerprint of the
 * status as it stood at the operator's last spec write (an annotation, kept by out-of-band edits),
 * the status last written by the component (null fields when never reported), and the ground truth
 * of the component when it computed that status (null when it never reported).
 */
record ComponentRevision(long resourceVersion, long generation, long specFromHcoGeneration, String statusAtSpecWrite,
        Long observedGeneration, String observedVersion, String targetVersion, List<Condition> conditions,
        Truth truthAtReport) {

    static final long FOREIGN_SPEC = -1;

    /** The operator's spec write: tested against the resourceVersion read, so the status it records is this one's. */
    ComponentRevision withSpec(long rv, long hcoGeneration) {
        return new ComponentRevision(rv, generation + 1, hcoGeneration, statusFingerprint(), observedGeneration,
                observedVersion, targetVersion, conditions, truthAtReport);
    }

    /** {@code kubectl edit} of the spec: our annotations stay as they were. */
    ComponentRevision withForeignSpec(long rv) {
        return new ComponentRevision(rv, generation + 1, FOREIGN_SPEC, statusAtSpecWrite, observedGeneration,
                observedVersion, targetVersion, conditions, truthAtReport);
    }

    ComponentRevision withStatus(long rv, Report report) {
        return new ComponentRevision(rv, generation, specFromHcoGeneration, statusAtSpecWrite,
                report.observedGeneration(), report.observedVersion(), report.targetVersion(), report.conditions(),
                report.truth());
    }

    /** The same content, now also what the component computes from {@code truth} (a write that changes nothing). */
    ComponentRevision confirmedBy(Truth truth) {
        return new ComponentRevision(resourceVersion, generation, specFromHcoGeneration, statusAtSpecWrite,
                observedGeneration, observedVersion, targetVersion, conditions, truth);
    }

    /** What the operator's fingerprint of the status depends on: its whole content, heartbeats included. */
    String statusFingerprint() {
        if (truthAtReport == null && conditions.isEmpty() && observedVersion == null) {
            return "none";
        }
        return Integer.toHexString(Objects.hash(observedGeneration, observedVersion, targetVersion, conditions));
    }

    boolean sameStatus(Report report) {
        return Objects.equals(observedGeneration, report.observedGeneration())
                && Objects.equals(observedVersion, report.observedVersion())
                && Objects.equals(targetVersion, report.targetVersion()) && conditions.equals(report.conditions());
    }

    ComponentObservation observation(SpecState spec) {
        return new ComponentObservation(true, Long.toString(resourceVersion), generation, observedGeneration,
                observedVersion, targetVersion, conditions, null, spec, null);
    }

    /** A status as a component computed it, possibly landing later. */
    record Report(Long observedGeneration, String observedVersion, String targetVersion, List<Condition> conditions,
            Truth truth) {
    }
}
