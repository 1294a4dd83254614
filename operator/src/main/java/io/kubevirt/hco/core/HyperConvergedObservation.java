package io.kubevirt.hco.core;

/**
 * The HyperConverged singleton as seen in a snapshot.
 *
 * @param observedGeneration the generation whose spec this operator has applied to the components
 * @param recordedOperatorVersion the operator version persisted in {@code status.versions}; null when none
 */
public record HyperConvergedObservation(boolean present, boolean deleting, long generation, Long observedGeneration,
        String recordedOperatorVersion) {

    public static HyperConvergedObservation absent() {
        return new HyperConvergedObservation(false, false, 0, null, null);
    }

    public HyperConvergedObservation withRecordedOperatorVersion(String version) {
        return new HyperConvergedObservation(present, deleting, generation, observedGeneration, version);
    }
}
