package io.kubevirt.hco.model;

/**
 * One revision of the HyperConverged: spec generation, the status the operator persisted, and
 * whether it is being deleted (a deletion timestamp, the finalizer still on).
 */
record HcoRevision(long resourceVersion, long generation, Long observedGeneration, String recordedVersion,
        boolean deleting) {
}
