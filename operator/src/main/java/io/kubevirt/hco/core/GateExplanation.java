package io.kubevirt.hco.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The current decision with the evidence it was taken on, for people: what OLM reads, why, since
 * when, how far the stabilization window is, where the upgrade stands, and per component what was
 * seen against what was expected. Built from the same snapshot the decision used, never re-read.
 */
public record GateExplanation(boolean upgradeable, String reason, String message, Instant since, Instant evaluatedAt,
        Stabilization stabilization, Upgrade upgrade, List<ComponentEvidence> components, List<Blocker> blockers,
        Map<String, String> notInstalled) {

    /** The stabilization window: how long everything has held, and how long it still must. */
    public record Stabilization(Duration window, Instant convergedSince, Duration remaining) {
    }

    /** Where the install or upgrade stands. */
    public record Upgrade(String phase, String fromVersion, String toVersion, Instant observedSince, List<String> done,
            List<String> pending) {
    }

    /** What one component showed, against what was expected of it. */
    public record ComponentEvidence(String name, boolean converged, String blockedBy, String detail, boolean present,
            String expectedVersion, String observedVersion, String targetVersion, Long generation,
            Long observedGeneration, String evidence, String snapshotResourceVersion, String lastWriteResourceVersion,
            Long lastWriteGeneration, SpecState spec, String problem,
            List<Condition> conditions) {
    }

    public static GateExplanation of(GateInput input, GateDecision decision, Instant since, Duration window,
            Instant upgradeObservedSince) {
        List<ComponentEvidence> components = new ArrayList<>();
        List<String> done = new ArrayList<>();
        List<String> pending = new ArrayList<>();
        for (GateInput.Component c : input.components()) {
            ComponentExpectation e = c.expectation();
            ComponentObservation o = c.observation();
            Blocker blocker = decision.assessment().blockerOf(e.component());
            (blocker == null ? done : pending).add(e.component());
            components.add(new ComponentEvidence(e.component(), blocker == null,
                    blocker == null ? null : blocker.reason().name(), blocker == null ? null : blocker.message(),
                    o.present(), e.expectedVersion(), o.observedVersion(), o.targetVersion(), o.generation(),
                    o.observedGeneration(), e.evidence().name(), o.resourceVersion(),
                    e.lastWrite() == null ? null : e.lastWrite().resourceVersion(),
                    e.lastWrite() == null ? null : e.lastWrite().generation(), o.spec(),
                    o.problem(), o.conditions()));
        }
        UpgradeState u = decision.assessment().upgrade();
        Duration remaining = decision.reason() == GateReason.Stabilizing ? decision.recheckAfter() : Duration.ZERO;
        return new GateExplanation(decision.upgradeable(), decision.reason().name(), decision.message(), since,
                input.now(), new Stabilization(window, decision.openSince(), remaining),
                new Upgrade(u.phase().name(), u.fromVersion(), u.toVersion(), u.inProgress() ? upgradeObservedSince : null,
                        done, pending),
                components, decision.blockers(), new java.util.TreeMap<>(input.notInstalled()));
    }

    /** A few lines for a terminal: the answer first, then one line per component. */
    public String toText() {
        StringBuilder out = new StringBuilder();
        out.append("Upgradeable=").append(upgradeable ? "True" : "False").append(" (").append(reason).append(")")
                .append(since == null ? "" : " since " + since).append('\n');
        out.append("  ").append(message).append('\n');
        out.append("upgrade: ").append(upgrade.phase());
        if (upgrade.fromVersion() != null || upgrade.toVersion() != null) {
            out.append(' ').append(upgrade.fromVersion() == null ? "(none)" : upgrade.fromVersion()).append(" -> ")
                    .append(upgrade.toVersion());
        }
        out.append("; done ").append(upgrade.done()).append(", pending ").append(upgrade.pending()).append('\n');
        if (stabilization.convergedSince() != null) {
            out.append("stabilization: converged since ").append(stabilization.convergedSince()).append(", window ")
                    .append(stabilization.window().toMillis()).append(" ms, remaining ")
                    .append(stabilization.remaining() == null ? 0 : stabilization.remaining().toMillis()).append(" ms\n");
        }
        for (ComponentEvidence c : components) {
            out.append(String.format("%-20s %-26s observed=%s target=%s expected=%s gen=%s/%s rv=%s (our write %s)%n",
                    c.name(), c.converged() ? "converged" : c.blockedBy(), c.observedVersion(), c.targetVersion(),
                    c.expectedVersion(), c.observedGeneration(), c.generation(), c.snapshotResourceVersion(),
                    c.lastWriteResourceVersion()));
            if (c.detail() != null) {
                out.append("                     ").append(c.detail()).append('\n');
            }
        }
        if (notInstalled != null) {
            notInstalled.forEach((name, why) -> out.append(String.format("%-20s %-26s %s%n", name, "NotInstalled", why)));
        }
        return out.toString();
    }
}
