package io.kubevirt.hco.model;

import java.util.List;
import java.util.Objects;

import io.kubevirt.hco.core.ComponentObservation;
import io.kubevirt.hco.core.Condition;
import io.kubevirt.hco.core.SpecState;

/**
 * One revision of a component CR in the model's API server: its spec (which HyperConverged
 * generation it was derived from, or -1 when someone edited it out of band), the fingerprint of the
 * status as it stood at the operator's last spec write (an annotation, kept by out-of-band edits),
 * the status last written by the component (null fields when never reported), and the ground truth
 * of the component when it computed that status (null when it never reported).
 */
record ComponentRevision(long resourceVersion, long generation, long specFromHcoGeneration, String statusAtSpecWrite,
        Long observedGeneration, String observedVersion, String targetVersion, List<Condition> conditions,
        Truth truthAtReport, long renderedFromHco, long renderedGeneration) {

    static final long FOREIGN_SPEC = -1;

    /**
     * The operator's spec write: tested against the resourceVersion read, so the status it records is
     * this one's; {@code keepRecord} keeps the record of the last write instead (ComponentWriter does
     * for a write that changes nothing the component renders). {@code rendered}: the HyperConverged
     * generation whose rendered part this spec carries (the rendered-hash annotation).
     */
    ComponentRevision withSpec(long rv, long hcoGeneration, long rendered, boolean keepRecord) {
        boolean renderedChanged = rendered != renderedFromHco || specFromHcoGeneration == FOREIGN_SPEC;
        return new ComponentRevision(rv, generation + 1, hcoGeneration, keepRecord ? statusAtSpecWrite : statusFingerprint(),
                observedGeneration, observedVersion, targetVersion, conditions, truthAtReport, rendered,
                renderedChanged ? generation + 1 : renderedGeneration);
    }

    /** {@code kubectl edit} of the spec (of what the component renders): our annotations stay as they were. */
    ComponentRevision withForeignSpec(long rv) {
        return new ComponentRevision(rv, generation + 1, FOREIGN_SPEC, statusAtSpecWrite, observedGeneration,
                observedVersion, targetVersion, conditions, truthAtReport, renderedFromHco, generation + 1);
    }

    ComponentRevision withStatus(long rv, Report report) {
        return new ComponentRevision(rv, generation, specFromHcoGeneration, statusAtSpecWrite,
                report.observedGeneration(), report.observedVersion(), report.targetVersion(), report.conditions(),
                report.truth(), renderedFromHco, renderedGeneration);
    }

    /** The same content, now also what the component computes from {@code truth} (a write that changes nothing). */
    ComponentRevision confirmedBy(Truth truth) {
        return new ComponentRevision(resourceVersion, generation, specFromHcoGeneration, statusAtSpecWrite,
                observedGeneration, observedVersion, targetVersion, conditions, truth, renderedFromHco,
                renderedGeneration);
    }

    /** What the operator's fingerprint of the status depends on: its whole content, heartbeats included. */
    String statusFingerprint() {
        if (truthAtReport == null && conditions.isEmpty() && observedVersion == null) {
            return "none";
        }
        return Integer.toHexString(Objects.hash(observedGeneration, observedVersion, targetVersion, conditions));
    }

    /**
     * What the real operators compare before they write: every value but the condition times (CDI's
     * SDK compares condition statuses, cluster-network-addons and virt-operator whole statuses whose
     * times move only with a change).
     */
    boolean sameStatus(Report report) {
        return Objects.equals(observedGeneration, report.observedGeneration())
                && Objects.equals(observedVersion, report.observedVersion())
                && Objects.equals(targetVersion, report.targetVersion())
                && timeless(conditions).equals(timeless(report.conditions()));
    }

    /** The same content, times included: nothing to write at all. */
    boolean sameContent(Report report) {
        return sameStatus(report) && conditions.equals(report.conditions());
    }

    private static List<Condition> timeless(List<Condition> conditions) {
        return conditions.stream().map(c -> new Condition(c.type(), c.status(), c.reason(), c.message(),
                c.observedGeneration(), null)).toList();
    }

    ComponentObservation observation(SpecState spec) {
        return new ComponentObservation(true, Long.toString(resourceVersion), generation, observedGeneration,
                observedVersion, targetVersion, conditions, null, spec, null);
    }

    /** A status as a component computed it, possibly landing later. */
    record Report(Long observedGeneration, String observedVersion, String targetVersion, List<Condition> conditions,
            Truth truth) {
    }
}
