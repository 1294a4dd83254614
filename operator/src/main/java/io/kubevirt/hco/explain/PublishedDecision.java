package io.kubevirt.hco.explain;

import java.util.List;

/**
 * What a standby answers on {@code /q/hco/gate}: it takes no decision of its own, so it relays the
 * one the leader published in the cluster — the HyperConverged's {@code Upgradeable} condition and
 * blockers — and says who leads, so that whichever pod {@code kubectl port-forward deploy/...}
 * lands on, the answer is the decision OLM reads.
 *
 * @param source where the decision was read ("HyperConverged status"), or why none was found
 * @param status "True", "False", or null when nothing is published
 */
public record PublishedDecision(String replica, String leader, String source, String status, String reason,
        String message, String since, List<Blocker> blockers) {

    public record Blocker(String component, String reason, String message) {
    }

    public String toText() {
        StringBuilder out = new StringBuilder();
        out.append("this replica (").append(replica).append(") is a standby; the leader is ")
                .append(leader == null ? "(none holds the lease)" : leader)
                .append(". The leader's published decision, from the ").append(source).append(":\n");
        if (status == null) {
            out.append("  none published\n");
            return out.toString();
        }
        out.append("Upgradeable=").append(status).append(" (").append(reason).append(")")
                .append(since == null ? "" : " since " + since).append('\n');
        out.append("  ").append(message).append('\n');
        for (Blocker b : blockers) {
            out.append(String.format("%-20s %-26s %s%n", b.component(), b.reason(), b.message()));
        }
        out.append("(the full evidence is on the leader: kubectl port-forward pod/")
                .append(leader == null ? "<leader>" : leader).append(" 9000)\n");
        return out.toString();
    }
}
