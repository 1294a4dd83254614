package io.kubevirt.hco.model;

/**
 * What a component operator really is at one moment, whatever its status says: the version it
 * runs, the CR generation it has processed, whether it is healthy, whether an upgrade is under way.
 */
record Truth(String running, long processedGeneration, boolean healthy, boolean upgrading) {

    /** Converged at {@code version} for CR generation {@code generation}: the only state the gate may open on. */
    boolean convergedAt(String version, long generation) {
        return version.equals(running) && processedGeneration == generation && healthy && !upgrading;
    }
}
