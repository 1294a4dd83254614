package io.kubevirt.hco.core;

/**
 * What proves that a component has seen the spec this operator last wrote. Components differ:
 * some stamp {@code status.observedGeneration}, others only refresh condition heartbeats.
 */
public enum ObservationEvidence {
    /** {@code status.observedGeneration} equals {@code metadata.generation}, and that generation is at least the one written. */
    OBSERVED_GENERATION,
    /**
     * A condition heartbeat ({@code lastHeartbeatTime}) strictly later than the time this operator
     * recorded for its last spec write (annotation on the CR). Clock skew between the two writers
     * can only delay the gate, never open it early, as long as the component's clock is not ahead.
     */
    HEARTBEAT_AFTER_SPEC_WRITE
}
