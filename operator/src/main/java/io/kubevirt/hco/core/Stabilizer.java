package io.kubevirt.hco.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Applies the stabilization window: an open assessment becomes an open gate only after it has held
 * continuously for {@code window}. The caller carries {@code openSince} from one decision to the
 * next; losing it (a restart) restarts the window, which only delays opening.
 */
public final class Stabilizer {

    private Stabilizer() {
    }

    public static GateDecision decide(Assessment assessment, Instant previousOpenSince, Duration window, Instant now) {
        if (!assessment.open()) {
            return new GateDecision(false, assessment.reason(), assessment.message(), assessment.blockers(),
                    assessment, null, null);
        }
        Instant since = previousOpenSince == null || previousOpenSince.isAfter(now) ? now : previousOpenSince;
        Duration held = Duration.between(since, now);
        if (held.compareTo(window) >= 0) {
            return new GateDecision(true, assessment.reason(), assessment.message(), List.of(), assessment, null, since);
        }
        Duration remaining = window.minus(held);
        // stable across evaluations (no running counter), so waiting out the window rewrites nothing
        String message = "converged (" + assessment.reason() + ") since " + since + "; holding for the "
                + window.toMillis() + " ms stabilization window";
        return new GateDecision(false, GateReason.Stabilizing, message,
                List.of(new Blocker(GateEvaluator.OPERATOR, GateReason.Stabilizing, message)), assessment, remaining,
                since);
    }
}
