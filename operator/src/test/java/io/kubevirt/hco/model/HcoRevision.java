package io.kubevirt.hco.model;

/**
 * One revision of the HyperConverged: spec generation, the status the operator persisted, whether
 * it is being deleted (a deletion timestamp, the finalizer still on), and per component the
 * generation at which the part of its spec that component renders last changed (for components
 * that render all of it, every generation).
 */
record HcoRevision(long resourceVersion, long generation, Long observedGeneration, String recordedVersion,
        boolean deleting, long[] renderedAt) {

    HcoRevision withStatus(long rv, Long observed, String recorded) {
        return new HcoRevision(rv, generation, observed, recorded, deleting, renderedAt);
    }
}
