package io.kubevirt.hco.core;

/**
 * What the shell knows of a component CR's spec, as data the decision can judge.
 *
 * @param inSync whether the spec is what the HyperConverged implies (as the API server keeps it:
 *        its defaults, pruning and admission taken into account); false while an out-of-band edit
 *        is not reverted yet
 * @param statusAtSpecWrite fingerprint of the component's status as it stood when this operator
 *        last wrote the spec (kept on the CR, so it survives restarts); null when not recorded
 * @param statusFingerprint fingerprint of the status in the snapshot
 */
public record SpecState(boolean inSync, String statusAtSpecWrite, String statusFingerprint) {

    /**
     * The component wrote its status after the spec write: the API server ordered that status
     * write after ours, whatever the clocks of either side say.
     */
    public boolean statusWrittenSinceSpecWrite() {
        return statusAtSpecWrite != null && statusFingerprint != null && !statusAtSpecWrite.equals(statusFingerprint);
    }
}
