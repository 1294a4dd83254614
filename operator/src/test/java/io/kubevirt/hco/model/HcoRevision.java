package io.kubevirt.hco.model;

/** One revision of the HyperConverged: spec generation, and the status the operator persisted. */
record HcoRevision(long resourceVersion, long generation, Long observedGeneration, String recordedVersion) {
}
