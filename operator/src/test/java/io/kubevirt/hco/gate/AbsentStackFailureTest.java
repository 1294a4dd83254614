package io.kubevirt.hco.gate;

import static org.awaitility.Awaitility.await;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.kubevirt.hco.reconciler.OlmInstalledOperator;
import io.kubevirt.hco.simulator.Cluster;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;

/**
 * No HyperConverged: the absent-stack check decides. When its reads fail, what OLM reads must not
 * stay the previous True (the check used to swallow the failure): it turns False/EvaluationError,
 * and back once the reads work again.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = OlmInstalledOperator.class)
class AbsentStackFailureTest {

    static final String NS = "kubevirt-hyperconverged";
    static final String OC = "hco-operator.v1.0.0";

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    KubernetesClient client;

    @Test
    void aFailedAbsentStackCheckClosesTheGateInsteadOfKeepingTrue() {
        Cluster cluster = new Cluster(client, NS);
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.upgradeable(OC) != null
                && "NoStackInstalled".equals(cluster.upgradeable(OC).get("reason")));
        server.expect().get()
                .withPath("/apis/hco.kubevirt.io/v1beta1/namespaces/" + NS + "/hyperconvergeds/kubevirt-hyperconverged")
                .andReturn(500, "etcd is having a bad day").times(3);
        await().atMost(Duration.ofSeconds(30)).until(() -> "EvaluationError".equals(cluster.upgradeable(OC).get("reason"))
                && "False".equals(cluster.upgradeable(OC).get("status")));
        await().atMost(Duration.ofSeconds(30)).until(() -> "NoStackInstalled".equals(cluster.upgradeable(OC).get("reason")));
    }
}
