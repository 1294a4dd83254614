package io.kubevirt.hco.core;

/**
 * What proves that a component has seen the spec this operator last wrote. Components differ:
 * some stamp {@code status.observedGeneration}, others only rewrite their status.
 */
public enum ObservationEvidence {
    /** {@code status.observedGeneration} equals {@code metadata.generation}, and that generation is at least the one written. */
    OBSERVED_GENERATION,
    /**
     * The component's status differs from the status the CR carried when this operator wrote the
     * spec: the component wrote it after our write, in the API server's own order (no clock is
     * compared). Such a write may still precede the component's look at the new spec (a refreshed
     * heartbeat): the stabilization window is what covers that, on the assumption that a component
     * which wrote its status after our spec write reports the consequences of that spec within the
     * window.
     */
    STATUS_WRITTEN_AFTER_SPEC
}
