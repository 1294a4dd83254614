package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Runs the operator jar the way a kubelet would run the given Deployment's pod: the container's
 * env (downward-API fields resolved), the pod's ServiceAccount token as the only credentials, and
 * whatever an installer injects (OLM adds OPERATOR_CONDITION_NAME). Proves that what a chart or
 * bundle ships is enough to run.
 */
final class DeployedOperator {

    private DeployedOperator() {
    }

    static OperatorProcess start(RealApiServer api, KubernetesClient admin, Deployment deployment, String namespace,
            Map<String, String> injected) throws IOException {
        String pod = deployment.getMetadata().getName() + "-0";
        var podSpec = deployment.getSpec().getTemplate().getSpec();
        Container container = podSpec.getContainers().get(0);
        Map<String, String> env = new HashMap<>();
        for (EnvVar var : container.getEnv()) {
            env.put(var.getName(), value(var, namespace, pod));
        }
        env.putAll(injected);
        String serviceAccount = podSpec.getServiceAccountName();
        String token = ClusterSetup.token(admin, namespace, serviceAccount);
        return OperatorProcess.startWithEnv(pod, api.kubeconfig(serviceAccount, token, namespace), env, api.dir());
    }

    private static String value(EnvVar var, String namespace, String pod) {
        if (var.getValueFrom() == null) {
            return var.getValue();
        }
        var field = var.getValueFrom().getFieldRef();
        if (field != null && "metadata.namespace".equals(field.getFieldPath())) {
            return namespace;
        }
        if (field != null && "metadata.name".equals(field.getFieldPath())) {
            return pod;
        }
        throw new IllegalArgumentException("env " + var.getName() + ": source " + var.getValueFrom()
                + " is not emulated by the e2e suite; extend DeployedOperator");
    }
}
