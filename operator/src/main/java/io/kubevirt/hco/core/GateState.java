package io.kubevirt.hco.core;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the gate remembers between two snapshots: when the assessment last turned open (the
 * stabilization window counts from there), the decision published last and its input, whether a
 * cache stopped following the cluster, and the upgrade's timing. Pure and not thread-safe: the
 * shell calls it under one lock. Losing it (a restart) only closes the gate until the next full
 * reconcile.
 */
public final class GateState {

    private Instant openSince;
    // read without the shell's lock (readiness, explain): volatile
    private volatile GateDecision current;
    private volatile Instant currentSince;
    private volatile GateInput currentInput;
    private Instant lastPublishedAt;
    private long publications;
    /** Why an informer's cache stopped following the cluster; once set, every decision is closed. */
    private String frozenCache;
    private Instant upgradeObservedSince;
    private String upgradePhase;
    private final Set<String> convergedDuringUpgrade = new HashSet<>();

    /**
     * What one publication changed, for the publisher to report.
     *
     * @param previous the decision published before (null: none)
     * @param transition whether openness or reason changed
     * @param closedFor how long the previous closed decision stood (null: it was open, or none)
     * @param convergedAfter components that converged for the first time in this upgrade, with how
     *        long after the upgrade was first seen
     * @param upgradeCompleted an upgrade this publication found finished (null: none)
     * @param conditions the stack's conditions this decision yields ({@link StackConditions#summarize})
     */
    public record Publication(GateDecision previous, boolean transition, Duration closedFor,
            Map<String, Duration> convergedAfter, UpgradeCompleted upgradeCompleted, List<Condition> conditions) {
    }

    /** An install or upgrade found finished: its phase, and how long it took as this process saw it. */
    public record UpgradeCompleted(String phase, Duration took) {
    }

    /** Takes the decision for an assessment, applying the stabilization window. */
    public GateDecision decide(Assessment assessment, Duration window, Instant now) {
        GateDecision decision = Stabilizer.decide(assessment, openSince, window, now);
        openSince = decision.openSince();
        return decision;
    }

    /** Makes {@code decision} the published one. */
    public Publication publish(GateInput input, GateDecision decision) {
        publications++;
        GateDecision previous = current;
        boolean transition = previous == null || previous.upgradeable() != decision.upgradeable()
                || previous.reason() != decision.reason();
        if (transition) {
            currentSince = input.now();
        }
        Duration closedFor = previous != null && !previous.upgradeable() && lastPublishedAt != null
                ? Duration.between(lastPublishedAt, input.now()) : null;
        lastPublishedAt = input.now();
        current = decision;
        currentInput = input;
        Map<String, Duration> converged = new LinkedHashMap<>();
        UpgradeCompleted completed = trackUpgrade(input, decision, converged);
        return new Publication(previous, transition, closedFor, converged, completed,
                StackConditions.summarize(input, decision));
    }

    /**
     * Upgrade timing as this process sees it: from the first decision that found an install or
     * upgrade in progress to the one that found it recorded; per component, when it first
     * converged meanwhile (added to {@code converged}). A restarted process starts counting again
     * (documented).
     *
     * @return the upgrade this decision found finished; null when none
     */
    private UpgradeCompleted trackUpgrade(GateInput input, GateDecision decision, Map<String, Duration> converged) {
        boolean upgrading = decision.assessment().upgrade().inProgress() && input.hyperConverged().present();
        if (!upgrading) {
            UpgradeCompleted completed = upgradeObservedSince == null ? null
                    : new UpgradeCompleted(upgradePhase, Duration.between(upgradeObservedSince, input.now()));
            upgradeObservedSince = null;
            return completed;
        }
        if (upgradeObservedSince == null) {
            upgradeObservedSince = input.now();
            upgradePhase = decision.assessment().upgrade().phase().name();
            convergedDuringUpgrade.clear();
        }
        for (GateInput.Component c : input.components()) {
            String name = c.expectation().component();
            if (decision.assessment().blockerOf(name) == null && convergedDuringUpgrade.add(name)) {
                converged.put(name, Duration.between(upgradeObservedSince, input.now()));
            }
        }
        return null;
    }

    /** From now on every decision is closed, {@code why} first. */
    public void freeze(String why) {
        frozenCache = why;
    }

    /** The input, closed by the frozen cache if one stopped. */
    public GateInput closedIfFrozen(GateInput input) {
        String why = frozenCache;
        if (why == null) {
            return input;
        }
        // the frozen cache goes first: it is what a restart cures, whatever else failed with it
        return input.withEvaluationError(input.evaluationError() == null || input.evaluationError().startsWith(why) ? why
                : why + "; also: " + input.evaluationError());
    }

    public boolean open() {
        return current != null && current.upgradeable();
    }

    /** The published decision is open because nothing is installed. */
    public boolean openOnNoStack() {
        return open() && currentInput != null && !currentInput.hyperConverged().present();
    }

    /** The published decision with its evidence; null before the first decision. */
    public GateExplanation explain(Duration window) {
        if (current == null || currentInput == null) {
            return null;
        }
        return GateExplanation.of(currentInput, current, currentSince, window, upgradeObservedSince);
    }

    public GateDecision current() {
        return current;
    }

    public Instant currentSince() {
        return currentSince;
    }

    public GateInput currentInput() {
        return currentInput;
    }

    public long publications() {
        return publications;
    }
}
