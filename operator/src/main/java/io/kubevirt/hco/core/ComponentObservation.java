package io.kubevirt.hco.core;

import java.util.List;

/**
 * One component CR as seen in a snapshot, reduced to what the gate needs. Built by a lenient
 * reader: whatever was missing or malformed is null, and {@code problem} says what was wrong.
 *
 * @param present whether the CR exists at all
 * @param spec what the shell found of its spec and the status at our last spec write; null when unknown
 * @param problem why the status could not be read (null when it could), e.g. "status.conditions is not a list"
 */
public record ComponentObservation(boolean present, String resourceVersion, Long generation, Long observedGeneration,
        String observedVersion, String targetVersion, List<Condition> conditions, Boolean paused,
        SpecState spec, String problem) {

    public ComponentObservation {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }

    public static ComponentObservation absent() {
        return new ComponentObservation(false, null, null, null, null, null, List.of(), null, null, null);
    }

    /** A component of the stack whose CRD is not served: {@code why} says which and what to do. */
    public static ComponentObservation crdMissing(String why) {
        return new ComponentObservation(false, null, null, null, null, null, List.of(), null, null, why);
    }

    /** The single condition of that type; null when absent. Duplicates are a {@code problem}, found by the reader. */
    public Condition condition(String type) {
        // a loop, not a stream: the decision looks up several conditions per component per
        // evaluation, and the stream's allocation was most of the core decision's time (bench)
        for (int i = 0; i < conditions.size(); i++) {
            Condition c = conditions.get(i);
            if (c.type().equals(type)) {
                return c;
            }
        }
        return null;
    }

    public ComponentObservation withSpec(SpecState state) {
        return new ComponentObservation(present, resourceVersion, generation, observedGeneration, observedVersion,
                targetVersion, conditions, paused, state, problem);
    }
}
