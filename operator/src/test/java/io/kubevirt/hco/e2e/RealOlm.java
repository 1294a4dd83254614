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
    /** Whether the real component operators run here (KWOK plays their operands' node). */
    private final boolean realComponents;

    private RealOlm(RealApiServer api, boolean realComponents) {
        this.api = api;
        this.admin = api.admin();
        this.realComponents = realComponents;
    }

    static RealOlm start() throws IOException, InterruptedException {
        return start(false);
    }

    /** With {@code realComponents}, a {@link KwokCluster} under OLM: the CSV's real operators can run. */
    static RealOlm start(boolean realComponents) throws IOException, InterruptedException {
        RealApiServer api = new RealApiServer().start();
        RealOlm cluster = new RealOlm(api, realComponents);
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
        String kubeconfig = (realComponents ? KwokCluster.addTo(api) : startControllerManager(api)).toString();
        // OLM reads its kubeconfig from the environment (controller-runtime's loader); no OpenShift
        // ClusterOperator to report to; metrics on OLM's fixed port, unused here
        List<String> command = List.of(bin.olm().toString(), "--namespace=" + OLM_NAMESPACE, "--writeStatusName=",
                "--writePackageServerStatusName=", "--interval=30s");
        if (!realComponents) {
            api.launch("olm", command, Map.of("KUBECONFIG", kubeconfig));
            return;
        }
        // OLM serves its health and metrics on the fixed :8080, and cluster-network-addons-operator its
        // metrics on the fixed :8080 too: in a cluster each has its pod's network, here they share this
        // host's. OLM only logs a failure to listen and goes on (cmd/olm/main.go), so the port is held
        // while OLM starts, until OLM has given it up; nothing here reads OLM's metrics.
        try (java.net.ServerSocket held = new java.net.ServerSocket(OLM_METRICS_PORT)) {
            api.launch("olm", command, Map.of("KUBECONFIG", kubeconfig));
            java.nio.file.Path log = api.dir().resolve("olm.log");
            org.awaitility.Awaitility.await("OLM gave up :" + OLM_METRICS_PORT).atMost(java.time.Duration.ofMinutes(1))
                    .until(() -> java.nio.file.Files.exists(log) && java.nio.file.Files.readString(log)
                            .contains(":" + OLM_METRICS_PORT + ": bind: address already in use"));
        }
    }

    /** The port OLM's olm-operator serves health and metrics on (not configurable). */
    static final int OLM_METRICS_PORT = 8080;

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
        // our operator's pods run the image the bundle names, as a container
        PodRunner runner = new PodRunner(api, namespace).fromImage();
        return (realComponents ? runner.withRealComponents(KwokCluster.KWOK_NODE) : runner).start();
    }

    @Override
    public void close() {
        api.close();
    }
}
