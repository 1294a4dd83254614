package io.kubevirt.hco.model;

/**
 * What a component operator really is at one moment, whatever its status says: the version it
 * runs, the CR generation it has processed, whether it is healthy, whether an upgrade is under way,
 * whether its operands are rolling after a change of what it renders.
 */
record Truth(String running, long processedGeneration, boolean healthy, boolean upgrading, boolean rolling) {

    /**
     * Converged at {@code version} for a CR whose rendered part last changed at generation
     * {@code renderedGeneration} (a component that renders every field: the CR's generation): the
     * only state the gate may open on.
     */
    boolean convergedAt(String version, long renderedGeneration) {
        return version.equals(running) && processedGeneration >= renderedGeneration && healthy && !upgrading
                && !rolling;
    }
}
