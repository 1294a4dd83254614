package io.kubevirt.hco.core;

import java.time.Duration;
import java.time.Instant;

/**
 * Who should lead while a Deployment rolls out: the pods of its current revision. A rolling update
 * starts one new pod next to the old ones and waits for it to turn ready before it removes an old
 * one; but a new pod that is only a standby cannot drive the upgrade its readiness waits for (in
 * readiness gate mode), so the rollout would wait forever. So a pod of the current revision that does
 * not lead announces itself, and a leader of an older revision hands the Lease to it — whichever
 * direction the revision went (an upgrade or a {@code helm rollback}). Revisions are the Deployment
 * controller's own ({@code deployment.kubernetes.io/revision}): no version is compared.
 */
public final class Succession {

    /** What this replica does about succession now. */
    public sealed interface Step {
    }

    /** Nothing: this replica is where it belongs (a current leader, an outdated standby, or unknown). */
    public record Stay() implements Step {
    }

    /** A standby of the current revision: renew the announcement that it is ready to lead. */
    public record Announce(long revision) implements Step {
    }

    /** An outdated leader that sees a live successor of the current revision: hand it the Lease. */
    public record HandOver(String successor, long revision) implements Step {
    }

    /** A standby's announcement as last read: who, for which revision, renewed when, valid how long. */
    public record Announcement(String identity, long revision, Instant renewed, Duration validFor) {
        boolean liveAt(Instant now) {
            return renewed != null && validFor != null && now.isBefore(renewed.plus(validFor));
        }
    }

    private Succession() {
    }

    /**
     * Whether the Deployment controller has finished rolling out the current revision: it has seen
     * the latest spec and every replica it counts is of that revision. Then no replica can be an
     * outdated leader (a running pod of an older revision would be counted) and there is nothing to
     * check; a pod of an older revision that is still stopping is not counted, but it is stopping.
     * Unknown counts (a status not written yet) say a rollout may be under way.
     *
     * @param desired {@code spec.replicas}; null is the API server's default, 1
     * @param replicas {@code status.replicas}, the pods of every revision; null when none
     * @param updated {@code status.updatedReplicas}, the pods of the current revision; null when none
     */
    public static boolean rolloutFinished(long generation, Long observedGeneration, Integer desired, Integer replicas,
            Integer updated) {
        if (observedGeneration == null || observedGeneration < generation) {
            return false;
        }
        int want = desired == null ? 1 : desired;
        return (replicas == null ? 0 : replicas) == want && (updated == null ? 0 : updated) == want;
    }

    /**
     * @param ownRevision the revision of this pod's ReplicaSet; null when unknown (not in a
     *            Deployment, or unreadable): then nothing is done, leadership stays as elected
     * @param currentRevision the Deployment's revision; null when unknown
     * @param announcement the latest announcement of a successor; null when none
     */
    public static Step next(boolean leader, String self, Long ownRevision, Long currentRevision,
            Announcement announcement, Instant now) {
        if (ownRevision == null || currentRevision == null) {
            return new Stay();
        }
        boolean current = ownRevision.equals(currentRevision);
        if (!leader) {
            return current ? new Announce(currentRevision) : new Stay();
        }
        if (current || announcement == null || self.equals(announcement.identity())) {
            return new Stay();
        }
        // an announcement from an older rollout (the Deployment moved on since) is no successor
        if (announcement.revision() != currentRevision || !announcement.liveAt(now)) {
            return new Stay();
        }
        return new HandOver(announcement.identity(), currentRevision);
    }
}
