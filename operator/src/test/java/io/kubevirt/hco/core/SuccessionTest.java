package io.kubevirt.hco.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.kubevirt.hco.core.Succession.Announce;
import io.kubevirt.hco.core.Succession.Announcement;
import io.kubevirt.hco.core.Succession.HandOver;
import io.kubevirt.hco.core.Succession.Stay;

class SuccessionTest {

    static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");
    static final Duration VALID = Duration.ofSeconds(15);

    static Announcement announced(String who, long revision, Duration ago) {
        return new Announcement(who, revision, NOW.minus(ago), VALID);
    }

    @Test
    void anOutdatedLeaderHandsOverToALiveSuccessorOfTheCurrentRevision() {
        assertThat(Succession.next(true, "old-a", 1L, 2L, announced("new-a", 2, Duration.ofSeconds(3)), NOW))
                .isEqualTo(new HandOver("new-a", 2));
    }

    @Test
    void aRollbackIsARolloutLikeAnyOther() {
        // helm rollback: the Deployment's revision grows again while the template is the older one
        assertThat(Succession.next(true, "v2-a", 3L, 4L, announced("v1-b", 4, Duration.ZERO), NOW))
                .isEqualTo(new HandOver("v1-b", 4));
    }

    @Test
    void aCurrentLeaderStaysWhateverIsAnnounced() {
        assertThat(Succession.next(true, "new-a", 2L, 2L, announced("new-b", 2, Duration.ZERO), NOW))
                .isInstanceOf(Stay.class);
    }

    @Test
    void noHandoverWithoutALiveSuccessorOfTheCurrentRevision() {
        // nobody announced: the new pods are not running (image pull, crash loop): keep leading
        assertThat(Succession.next(true, "old-a", 1L, 2L, null, NOW)).isInstanceOf(Stay.class);
        // announced, then gone quiet (the new pod died)
        assertThat(Succession.next(true, "old-a", 1L, 2L, announced("new-a", 2, Duration.ofSeconds(15)), NOW))
                .isInstanceOf(Stay.class);
        // announced for a rollout the Deployment has since replaced
        assertThat(Succession.next(true, "old-a", 1L, 3L, announced("new-a", 2, Duration.ZERO), NOW))
                .isInstanceOf(Stay.class);
        // its own old announcement (it was a standby before it won the election)
        assertThat(Succession.next(true, "old-a", 1L, 2L, announced("old-a", 2, Duration.ZERO), NOW))
                .isInstanceOf(Stay.class);
    }

    @Test
    void onlyStandbysOfTheCurrentRevisionAnnounce() {
        assertThat(Succession.next(false, "new-a", 2L, 2L, null, NOW)).isEqualTo(new Announce(2));
        // an outdated standby (e.g. the old leader's restarted container) never claims succession
        assertThat(Succession.next(false, "old-a", 1L, 2L, null, NOW)).isInstanceOf(Stay.class);
    }

    @Test
    void unknownRevisionsChangeNothing() {
        assertThat(Succession.next(true, "a", null, 2L, announced("b", 2, Duration.ZERO), NOW)).isInstanceOf(Stay.class);
        assertThat(Succession.next(true, "a", 1L, null, announced("b", 2, Duration.ZERO), NOW)).isInstanceOf(Stay.class);
        assertThat(Succession.next(false, "a", null, null, null, NOW)).isInstanceOf(Stay.class);
    }

    @Test
    void aRolloutIsFinishedOnlyWhenTheControllerSawTheSpecAndCountsOnlyCurrentReplicas() {
        assertThat(Succession.rolloutFinished(3, 3L, 2, 2, 2)).isTrue();
        // the spec changed and the controller has not seen it yet (a rollout may just have begun)
        assertThat(Succession.rolloutFinished(4, 3L, 2, 2, 2)).isFalse();
        // one pod of the new revision next to two old ones: an old one may lead
        assertThat(Succession.rolloutFinished(4, 4L, 2, 3, 1)).isFalse();
        // every new pod up, one old pod still counted
        assertThat(Succession.rolloutFinished(4, 4L, 2, 3, 2)).isFalse();
        // a status the controller has not written yet says nothing: maybe rolling
        assertThat(Succession.rolloutFinished(1, null, 2, null, null)).isFalse();
        // omitted counts are zero, an omitted spec.replicas is the API server's default of one
        assertThat(Succession.rolloutFinished(1, 1L, 0, null, null)).isTrue();
        assertThat(Succession.rolloutFinished(1, 1L, null, 1, 1)).isTrue();
        assertThat(Succession.rolloutFinished(1, 1L, null, null, null)).isFalse();
    }
}
