package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.nio.file.Path;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A real API server with kube-controller-manager (Deployments roll pods out) and the pod runner in
 * place of a kubelet for one namespace: what a Helm install needs to come up here.
 */
final class ClusterWithKubelet implements AutoCloseable {

    final RealApiServer api;
    final KubernetesClient admin;
    /** The admin kubeconfig (for helm and kubectl). */
    final Path kubeconfig;
    final PodRunner kubelet;

    ClusterWithKubelet(RealApiServer api, Path kubeconfig, PodRunner kubelet) {
        this.api = api;
        this.admin = api.admin();
        this.kubeconfig = kubeconfig;
        this.kubelet = kubelet;
    }

    /** {@code prepare} runs before the controllers start (CRDs, APIs the cluster should serve). */
    static ClusterWithKubelet start(String namespace, java.util.function.Consumer<KubernetesClient> prepare)
            throws IOException, InterruptedException {
        RealApiServer api = new RealApiServer().start();
        try {
            prepare.accept(api.admin());
            Path kubeconfig = RealOlm.startControllerManager(api);
            ClusterSetup.createNamespace(api.admin(), namespace);
            return new ClusterWithKubelet(api, kubeconfig, new PodRunner(api, namespace).start());
        } catch (IOException | RuntimeException e) {
            api.close();
            throw e;
        }
    }

    /** {@code helm} with these arguments, failures as unchecked exceptions (for async use). */
    static BuildOutputs.Result helm(java.util.List<String> args) {
        try {
            return BuildOutputs.helm(args.toArray(String[]::new));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            kubelet.close();
        } finally {
            api.close();
        }
    }
}
