package io.kubevirt.hco.core;

import java.time.Instant;
import java.util.List;

/**
 * One component CR as seen in a snapshot, reduced to what the gate needs. Built by a lenient
 * reader: whatever was missing or malformed is null, and {@code problem} says what was wrong.
 *
 * @param present whether the CR exists at all
 * @param problem why the status could not be read (null when it could), e.g. "status.conditions is not a list"
 */
public record ComponentObservation(boolean present, String resourceVersion, Long generation, Long observedGeneration,
        String observedVersion, String targetVersion, List<Condition> conditions, Boolean paused,
        Instant specAppliedAt, String problem) {

    public ComponentObservation {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }

    public static ComponentObservation absent() {
        return new ComponentObservation(false, null, null, null, null, null, List.of(), null, null, null);
    }

    /** The single condition of that type; null when absent. Duplicates are a {@code problem}, found by the reader. */
    public Condition condition(String type) {
        return conditions.stream().filter(c -> c.type().equals(type)).findFirst().orElse(null);
    }

    public Instant latestHeartbeat() {
        return conditions.stream().map(Condition::lastHeartbeatTime).filter(t -> t != null)
                .max(Instant::compareTo).orElse(null);
    }
}
