package io.kubevirt.hco.simulator;

import java.time.Duration;

/**
 * How a simulated component operator's status habits deviate from the plainest ones, each taken
 * from a real component: its clock runs {@code clockOffset} off the operator's; it takes
 * {@code observeDelay} to look at a new spec (a slow follower; it writes nothing meanwhile, unless
 * {@code refreshesStaleHeartbeats}, as cluster-network-addons does: it refreshes the heartbeats of
 * the conditions it computed before it checked the new spec, at once); and it may go silent for
 * good once a spec change arrives ({@code silentAfterSpecChange}).
 */
public record ComponentHabits(Duration clockOffset, Duration observeDelay, boolean refreshesStaleHeartbeats,
        boolean silentAfterSpecChange) {

    public static final ComponentHabits PLAIN = new ComponentHabits(Duration.ZERO, Duration.ZERO, false, false);

    public ComponentHabits withClockOffset(Duration offset) {
        return new ComponentHabits(offset, observeDelay, refreshesStaleHeartbeats, silentAfterSpecChange);
    }

    public ComponentHabits withObserveDelay(Duration delay) {
        return new ComponentHabits(clockOffset, delay, refreshesStaleHeartbeats, silentAfterSpecChange);
    }

    public ComponentHabits refreshingStaleHeartbeats() {
        return new ComponentHabits(clockOffset, observeDelay, true, silentAfterSpecChange);
    }

    public ComponentHabits goingSilentAfterSpecChange() {
        return new ComponentHabits(clockOffset, observeDelay, refreshesStaleHeartbeats, true);
    }
}
