package io.kubevirt.hco.model;

import java.time.Instant;
import java.util.List;

import io.kubevirt.hco.core.Condition;
import io.kubevirt.hco.core.ComponentObservation;

/**
 * One revision of a component CR in the model's API server: its spec (which HyperConverged
 * generation it was derived from, when it was written), the status last written by the component
 * (null fields when never reported), and the ground truth of the component when it computed that
 * status (null when it never reported).
 */
record ComponentRevision(long resourceVersion, long generation, long specFromHcoGeneration, Instant specAppliedAt,
        Long observedGeneration, String observedVersion, String targetVersion, List<Condition> conditions,
        Truth truthAtReport) {

    ComponentRevision withSpec(long rv, long hcoGeneration, Instant at) {
        return new ComponentRevision(rv, generation + 1, hcoGeneration, at, observedGeneration, observedVersion,
                targetVersion, conditions, truthAtReport);
    }

    ComponentRevision withStatus(long rv, Report report) {
        return new ComponentRevision(rv, generation, specFromHcoGeneration, specAppliedAt, report.observedGeneration(),
                report.observedVersion(), report.targetVersion(), report.conditions(), report.truth());
    }

    ComponentObservation observation() {
        return new ComponentObservation(true, Long.toString(resourceVersion), generation, observedGeneration,
                observedVersion, targetVersion, conditions, null, specAppliedAt, null);
    }

    /** A status as a component computed it, possibly landing later. */
    record Report(Long observedGeneration, String observedVersion, String targetVersion, List<Condition> conditions,
            Truth truth) {
    }
}
