package io.kubevirt.hco.reconciler;

import java.util.function.Consumer;

import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentCrds;
import io.quarkus.test.kubernetes.client.KubernetesServer;

/** The cluster as OLM leaves it before the operator starts: an empty OperatorCondition for the CSV. */
public class OlmInstalledOperator implements Consumer<KubernetesServer> {

    @Override
    public void accept(KubernetesServer server) {
        ComponentCrds.install(server.getClient());
        new Cluster(server.getClient(), GateLifecycleTest.NS).createOperatorCondition(GateLifecycleTest.OC);
    }
}
