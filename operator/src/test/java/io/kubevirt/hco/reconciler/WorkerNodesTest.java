package io.kubevirt.hco.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;

/** The Node informer's cache keeps what the count reads (the roles), and nothing else of a Node. */
class WorkerNodesTest {

    static Node node(String name, Map<String, String> labels) {
        return new NodeBuilder().withNewMetadata().withName(name).withResourceVersion("7").withLabels(labels).endMetadata()
                .withNewStatus().addNewImage().withNames("quay.io/kubevirt/virt-launcher:v1.5.0").withSizeBytes(400_000_000L)
                .endImage().addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    }

    static int countOf(List<Node> nodes) {
        return WorkerNodes.count(nodes.stream().mapToInt(WorkerNodes::roles));
    }

    @Test
    void labelledWorkersAreCountedWhereAnyNodeIsLabelledOtherwiseEveryNodeButTheControlPlane() {
        var cp = node("cp", Map.of(WorkerNodes.CONTROL_PLANE, ""));
        var master = node("m", Map.of(WorkerNodes.MASTER, ""));
        var plain = node("plain", Map.of("zone", "a"));
        var worker = node("w", Map.of(WorkerNodes.WORKER, ""));
        assertThat(countOf(List.of(cp, master, plain))).isEqualTo(1);
        assertThat(countOf(List.of(cp, master, plain, worker))).isEqualTo(1);
        assertThat(countOf(List.of(cp, plain, node("p2", null)))).isEqualTo(2);
        assertThat(countOf(List.of(cp))).isZero();
        assertThat(countOf(List.of())).isZero();
    }

    @Test
    void theCacheCountsAsTheFullNodesDoAndKeepsOnlyNameRevisionAndRoles() {
        var store = new NodeRoleStore();
        List<Node> full = List.of(node("cp", Map.of(WorkerNodes.CONTROL_PLANE, "")),
                node("w1", Map.of(WorkerNodes.WORKER, "")), node("w2", Map.of(WorkerNodes.WORKER, "", "zone", "a")),
                node("plain", Map.of()));
        full.forEach(n -> store.put(store.getKey(n), n));

        assertThat(store.workers()).isEqualTo(countOf(full)).isEqualTo(2);
        assertThat(countOf(store.values().toList())).isEqualTo(2);
        assertThat(store.values()).allSatisfy(n -> assertThat(n.getStatus()).isNull());
        assertThat(store.get("w2").getMetadata().getLabels()).containsOnlyKeys(WorkerNodes.WORKER);
        assertThat(store.get("w2").getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(store.isFullState()).isFalse();
        assertThat(store.size()).isEqualTo(4);
        // a change of role is seen on the cached copy (the informer's "before" of an update)
        assertThat(WorkerNodes.rolesChanged(node("plain", Map.of(WorkerNodes.WORKER, "")), store.get("plain"))).isTrue();
        assertThat(WorkerNodes.rolesChanged(node("w1", Map.of(WorkerNodes.WORKER, "", "zone", "b")), store.get("w1")))
                .isFalse();

        // put hands back what was kept before; removals and role changes move the count
        Node before = store.put("w1", node("w1", Map.of()));
        assertThat(before.getMetadata().getLabels()).containsOnlyKeys(WorkerNodes.WORKER);
        assertThat(store.workers()).isEqualTo(1);
        assertThat(store.remove("w2").getMetadata().getName()).isEqualTo("w2");
        // no labelled worker left: every node but the control plane counts
        assertThat(store.workers()).isEqualTo(2);
        assertThat(store.remove("gone")).isNull();
        assertThat(store.get("gone")).isNull();
        assertThat(store.keySet()).containsExactlyInAnyOrder("cp", "w1", "plain");
    }
}
