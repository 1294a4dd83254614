package io.kubevirt.hco.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.informers.cache.ReducedStateItemStore;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** The Node informer's cache keeps what the count reads, and nothing of a Node's status. */
class WorkerNodesTest {

    static Node node(String name, Map<String, String> labels) {
        return new NodeBuilder().withNewMetadata().withName(name).withResourceVersion("7").withLabels(labels).endMetadata()
                .withNewStatus().addNewImage().withNames("quay.io/kubevirt/virt-launcher:v1.5.0").withSizeBytes(400_000_000L)
                .endImage().addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    }

    @Test
    void theCountIsTakenAgainOnlyAfterANodeEvent() {
        WorkerNodes.Count count = new WorkerNodes.Count();
        int[] recounts = { 0 };
        java.util.function.IntSupplier recount = () -> ++recounts[0];
        assertThat(count.count(recount)).isEqualTo(1);
        assertThat(count.count(recount)).isEqualTo(1);
        assertThat(count.changed()).isTrue();
        assertThat(count.count(recount)).isEqualTo(2);
        // a recount that fails leaves the count to be taken again
        count.changed();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> count.count(() -> {
            throw new IllegalStateException("informer not ready");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(count.count(recount)).isEqualTo(3);
    }

    @Test
    void theReducedCacheCountsAsTheFullNodesDoAndHoldsNoStatus() {
        var store = new ReducedStateItemStore<>(ReducedStateItemStore.NAME_KEY_STATE, Node.class,
                new KubernetesSerialization(), WorkerNodes.FIELDS_USED);
        List<Node> full = List.of(node("cp", Map.of(WorkerNodes.CONTROL_PLANE, "")),
                node("w1", Map.of(WorkerNodes.WORKER, "")), node("w2", Map.of(WorkerNodes.WORKER, "", "zone", "a")),
                node("plain", Map.of()));
        full.forEach(n -> store.put(store.getKey(n), n));

        List<Node> cached = store.values().toList();
        assertThat(WorkerNodes.count(cached)).isEqualTo(WorkerNodes.count(full)).isEqualTo(2);
        assertThat(cached).allSatisfy(n -> assertThat(n.getStatus()).isNull());
        assertThat(store.get("w2").getMetadata().getLabels()).containsEntry("zone", "a");
        assertThat(store.getResourceVersion("w2")).isEqualTo("7");
        // a change of role is seen on the cached copy (the informer's "before" of an update)
        assertThat(WorkerNodes.rolesChanged(node("plain", Map.of(WorkerNodes.WORKER, "")), store.get("plain"))).isTrue();
        assertThat(WorkerNodes.rolesChanged(node("w1", Map.of(WorkerNodes.WORKER, "")), store.get("w1"))).isFalse();
    }
}
