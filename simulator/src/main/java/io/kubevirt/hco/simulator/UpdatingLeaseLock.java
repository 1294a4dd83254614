package io.kubevirt.hco.simulator;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;

/**
 * A Lease lock that renews with an update (PUT carrying the resourceVersion read), as client-go's
 * leader election does in every real component operator: their RBAC grants leases get, create and
 * update, and cdi-operator's no patch, which fabric8's own lock renews with (every renewal refused,
 * no leader after the first lease ran out).
 */
final class UpdatingLeaseLock extends LeaseLock {

    private Lease current;

    UpdatingLeaseLock(String namespace, String name, String identity) {
        super(namespace, name, identity);
    }

    @Override
    public synchronized LeaderElectionRecord get(KubernetesClient client) {
        current = client.leases().inNamespace(getObjectMeta(null).build().getNamespace())
                .withName(getObjectMeta(null).build().getName()).get();
        return current == null ? null : toRecord(current);
    }

    @Override
    public synchronized void create(KubernetesClient client, LeaderElectionRecord record) {
        current = client.resource(toResource(record, getObjectMeta(null))).create();
    }

    @Override
    public synchronized void update(KubernetesClient client, LeaderElectionRecord record) {
        current = client.resource(toResource(record, getObjectMeta(current.getMetadata().getResourceVersion()))).update();
    }
}
