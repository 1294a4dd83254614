package io.kubevirt.hco.core;

/**
 * What this operator expects of one component: the version it must report, how it proves it saw
 * the spec, whether it reports a target version, and this process's last write to it (null when
 * this process has not written it).
 */
public record ComponentExpectation(String component, String expectedVersion, ObservationEvidence evidence,
        boolean reportsTargetVersion, WriteRecord lastWrite) {
}
