package io.kubevirt.hco.reconciler;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.fabric8.kubernetes.api.model.Node;

/**
 * How many nodes VMs can run on, for the defaults that depend on it (KubeVirt's eviction strategy,
 * control-plane replicas). Nodes labelled as workers when any node carries that label (OpenShift,
 * upstream's count); otherwise every node that is not a control-plane node (vanilla clusters label
 * no workers, and counting zero there would make every cluster look like a single node). A Node's
 * roles are read once, into bits ({@link #roles}), and the count works on those.
 */
final class WorkerNodes {

    static final String WORKER = "node-role.kubernetes.io/worker";
    static final String CONTROL_PLANE = "node-role.kubernetes.io/control-plane";
    static final String MASTER = "node-role.kubernetes.io/master";
    private static final List<String> ROLE_LABELS = List.of(WORKER, CONTROL_PLANE, MASTER);
    private static final int WORKER_BIT = 1 << ROLE_LABELS.indexOf(WORKER);

    private WorkerNodes() {
    }

    /** The Node's roles: bit i set when it carries the i-th role label (worker, control-plane, master). */
    static int roles(Node n) {
        Map<String, String> labels = n.getMetadata() == null ? null : n.getMetadata().getLabels();
        int roles = 0;
        for (int i = 0; labels != null && i < ROLE_LABELS.size(); i++) {
            if (labels.containsKey(ROLE_LABELS.get(i))) {
                roles |= 1 << i;
            }
        }
        return roles;
    }

    /** The role labels that {@code roles} stands for. */
    static List<String> labelsOf(int roles) {
        return IntStream.range(0, ROLE_LABELS.size()).filter(i -> (roles & 1 << i) != 0).mapToObj(ROLE_LABELS::get)
                .toList();
    }

    static int count(IntStream roles) {
        int[] workersAndOthers = new int[2];
        roles.forEach(r -> {
            if ((r & WORKER_BIT) != 0) {
                workersAndOthers[0]++;
            } else if (r == 0) {
                workersAndOthers[1]++;
            }
        });
        return workersAndOthers[0] > 0 ? workersAndOthers[0] : workersAndOthers[1];
    }

    static boolean rolesChanged(Node now, Node before) {
        return roles(now) != roles(before);
    }
}
