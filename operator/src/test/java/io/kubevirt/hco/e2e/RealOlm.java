package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A cluster in which OLM decides: the real kube-apiserver + etcd, kube-controller-manager (Deployments
 * make ReplicaSets make Pods; garbage collection of what a deleted CSV owned), OLM's own olm-operator
 * binary, OLM's CRDs, and a {@link PodRunner} per namespace in place of the kubelet.
 */
final class RealOlm implements AutoCloseable {

    static final String OLM_NAMESPACE = "olm";

    final RealApiServer api;
    final KubernetesClient admin;

    private RealOlm(RealApiServer api) {
        this.api = api;
        this.admin = api.admin();
    }

    static RealOlm start() throws IOException, InterruptedException {
        RealApiServer api = new RealApiServer().start();
        RealOlm cluster = new RealOlm(api);
        try {
            cluster.boot();
        } catch (IOException | RuntimeException e) {
            api.close();
            throw e;
        }
        return cluster;
    }

    private void boot() throws IOException {
        E2eBinaries bin = E2eBinaries.get();
        ClusterSetup.installOlmAndMonitoringCrds(admin);
        ClusterSetup.createNamespace(admin, OLM_NAMESPACE);
        String kubeconfig = startControllerManager(api).toString();
        // OLM reads its kubeconfig from the environment (controller-runtime's loader); no OpenShift
        // ClusterOperator to report to; metrics on OLM's fixed port, unused here
        api.launch("olm", List.of(bin.olm().toString(), "--namespace=" + OLM_NAMESPACE, "--writeStatusName=",
                "--writePackageServerStatusName=", "--interval=30s"), Map.of("KUBECONFIG", kubeconfig));
    }

    /**
     * kube-controller-manager with the controllers a Deployment needs (Deployments make ReplicaSets
     * make Pods, rolling updates included), garbage collection and ServiceAccount token Secrets;
     * returns the admin kubeconfig.
     */
    static java.nio.file.Path startControllerManager(RealApiServer api) throws IOException {
        return startControllerManager(api, "");
    }

    /** As above, with more of its controllers ({@code extra}: ",daemonset-controller,..."). */
    static java.nio.file.Path startControllerManager(RealApiServer api, String extra) throws IOException {
        java.nio.file.Path kubeconfig = api.kubeconfig("e2e-admin", RealApiServer.ADMIN_TOKEN, "default");
        api.launch("kube-controller-manager", List.of(E2eBinaries.get().kubeControllerManager().toString(),
                "--kubeconfig=" + kubeconfig, "--leader-elect=false", "--secure-port=0",
                "--use-service-account-credentials=false",
                // the token controller fills ServiceAccount token Secrets (the metrics scraper's)
                "--service-account-private-key-file=" + api.dir().resolve("sa.key"),
                "--controllers=deployment-controller,replicaset-controller,garbage-collector-controller,"
                        + "serviceaccount-token-controller,endpointslice-controller" + extra,
                "-v=1"));
        return kubeconfig;
    }

    PodRunner kubelet(String namespace) {
        return new PodRunner(api, namespace).start();
    }

    @Override
    public void close() {
        api.close();
    }
}
