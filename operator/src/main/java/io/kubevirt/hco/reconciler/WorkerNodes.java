package io.kubevirt.hco.reconciler;

import java.util.Collection;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Node;

/**
 * How many nodes VMs can run on, for the defaults that depend on it (KubeVirt's eviction strategy,
 * control-plane replicas). Nodes labelled as workers when any node carries that label (OpenShift,
 * upstream's count); otherwise every node that is not a control-plane node (vanilla clusters label
 * no workers, and counting zero there would make every cluster look like a single node).
 */
final class WorkerNodes {

    static final String WORKER = "node-role.kubernetes.io/worker";
    static final String CONTROL_PLANE = "node-role.kubernetes.io/control-plane";
    static final String MASTER = "node-role.kubernetes.io/master";
    /** All of a Node this reads (besides its name): what the Node informer's cache keeps. */
    static final String[] FIELDS_USED = { "metadata.labels" };

    private WorkerNodes() {
    }

    /** The last count, and whether a node event came since it was taken. */
    static final class Count {
        private volatile boolean stale = true;
        private volatile int count;

        /** Marks the count stale; true, so that it can sit in an event filter that lets the event through. */
        boolean changed() {
            stale = true;
            return true;
        }

        int count(java.util.function.IntSupplier recount) {
            if (stale) {
                // cleared first: an event during the recount leaves it stale for the next pass
                stale = false;
                try {
                    count = recount.getAsInt();
                } catch (RuntimeException e) {
                    stale = true;
                    throw e;
                }
            }
            return count;
        }
    }

    static int count(Collection<Node> nodes) {
        long labelledWorkers = nodes.stream().filter(n -> labels(n).containsKey(WORKER)).count();
        if (labelledWorkers > 0) {
            return (int) labelledWorkers;
        }
        return (int) nodes.stream().filter(n -> !labels(n).containsKey(CONTROL_PLANE) && !labels(n).containsKey(MASTER))
                .count();
    }

    static boolean rolesChanged(Node now, Node before) {
        return !roles(labels(now)).equals(roles(labels(before)));
    }

    private static String roles(Map<String, String> labels) {
        return labels.containsKey(WORKER) + "/" + labels.containsKey(CONTROL_PLANE) + "/" + labels.containsKey(MASTER);
    }

    private static Map<String, String> labels(Node n) {
        Map<String, String> labels = n.getMetadata() == null ? null : n.getMetadata().getLabels();
        return labels == null ? Map.of() : labels;
    }
}
