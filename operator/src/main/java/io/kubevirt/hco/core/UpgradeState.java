package io.kubevirt.hco.core;

/**
 * Where the stack stands between the version recorded in the cluster and the running operator's.
 * Derived, never stored in memory: the record lives in {@code HyperConverged.status.versions}, so a
 * replaced pod resumes from it. Skipping releases is no special case: the target is simply the
 * running version.
 */
public record UpgradeState(Phase phase, String fromVersion, String toVersion) {

    public enum Phase {
        /** No version recorded yet: the stack is being installed. */
        INSTALLING,
        /** A different version is recorded: the stack is being upgraded to the running version. */
        UPGRADING,
        /** The running version is recorded: nothing in flight. */
        COMPLETE
    }

    public static UpgradeState of(String recordedVersion, String operatorVersion) {
        if (recordedVersion == null || recordedVersion.isBlank()) {
            return new UpgradeState(Phase.INSTALLING, null, operatorVersion);
        }
        if (recordedVersion.equals(operatorVersion)) {
            return new UpgradeState(Phase.COMPLETE, recordedVersion, operatorVersion);
        }
        return new UpgradeState(Phase.UPGRADING, recordedVersion, operatorVersion);
    }

    public boolean inProgress() {
        return phase != Phase.COMPLETE;
    }
}
