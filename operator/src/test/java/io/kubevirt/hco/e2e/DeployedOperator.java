package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.simulator.SimulatedComponent;

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
        return start(api, admin, deployment, namespace, injected, OperatorLaunch.standard(),
                deployment.getMetadata().getName() + "-0");
    }

    /** As above, the operator started as {@code launch} says (e.g. from its image), as pod {@code pod}. */
    static OperatorProcess start(RealApiServer api, KubernetesClient admin, Deployment deployment, String namespace,
            Map<String, String> injected, OperatorLaunch launch, String pod) throws IOException {
        var template = deployment.getSpec().getTemplate();
        return (OperatorProcess) startContainer(api, admin, pod,
                template.getMetadata() == null ? Map.of() : template.getMetadata().getLabels(), template.getSpec(),
                namespace, injected, false, launch);
    }

    /** The operator as the kubelet would run pod {@code pod} (with these labels) with this spec. */
    static OperatorProcess startPod(RealApiServer api, KubernetesClient admin, String pod, Map<String, String> labels,
            PodSpec podSpec, String namespace, Map<String, String> injected) throws IOException {
        return (OperatorProcess) startContainer(api, admin, pod, labels, podSpec, namespace, injected);
    }

    /**
     * What runs pod {@code pod}'s container here: the operator jar for our image, the simulated
     * component operator for a component operator's image (the ones the release ships).
     */
    static PodProcess startContainer(RealApiServer api, KubernetesClient admin, String pod, Map<String, String> labels,
            PodSpec podSpec, String namespace, Map<String, String> injected) throws IOException {
        return startContainer(api, admin, pod, labels, podSpec, namespace, injected, false);
    }

    /**
     * As above; with {@code realComponents}, the component operators whose real operator the suite
     * builds (virt-operator, cluster-network-addons-operator) run as themselves, the others simulated.
     */
    static PodProcess startContainer(RealApiServer api, KubernetesClient admin, String pod, Map<String, String> labels,
            PodSpec podSpec, String namespace, Map<String, String> injected, boolean realComponents) throws IOException {
        return startContainer(api, admin, pod, labels, podSpec, namespace, injected, realComponents,
                OperatorLaunch.standard());
    }

    /** As above; our operator's container started as {@code launch} says (the jar, or its image). */
    static PodProcess startContainer(RealApiServer api, KubernetesClient admin, String pod, Map<String, String> labels,
            PodSpec podSpec, String namespace, Map<String, String> injected, boolean realComponents,
            OperatorLaunch launch) throws IOException {
        Container container = podSpec.getContainers().get(0);
        Map<String, String> mounts = mountSecrets(admin, podSpec, container, namespace, api.dir().resolve(pod));
        Map<String, String> podEnv = new HashMap<>();
        for (EnvVar var : container.getEnv()) {
            podEnv.put(var.getName(), value(var, namespace, pod, labels == null ? Map.of() : labels));
        }
        podEnv.putAll(injected);
        // what a process on this host sees: paths under the volumes' mount paths are its directories
        Map<String, String> env = new HashMap<>();
        podEnv.forEach((k, v) -> env.put(k, OperatorProcess.onHost(v, mounts)));
        String serviceAccount = podSpec.getServiceAccountName();
        String token = ClusterSetup.token(admin, namespace, serviceAccount);
        Path kubeconfig = api.kubeconfig(serviceAccount, token, namespace);
        var real = realComponents ? RealComponentProcess.Kind.forImage(container.getImage())
                : java.util.Optional.<RealComponentProcess.Kind>empty();
        if (real.isPresent()) {
            return RealComponentProcess.start(real.get(), pod, container, kubeconfig, env, api.dir());
        }
        if (SimulatedComponent.forImage(container.getImage()).isPresent()) {
            // where the volumes are on this host: the simulated operator looks for its certificate there
            StringBuilder where = new StringBuilder();
            mounts.forEach((path, dir) -> where.append(path).append('=').append(dir).append(';'));
            env.put("SIMULATED_MOUNTS", where.toString());
            return ComponentOperatorProcess.start(pod, container.getImage(), kubeconfig, env, api.dir());
        }
        if (launch.inContainer() && container.getImage().contains("@")
                && !container.getImage().endsWith("@" + launch.image().digest())) {
            // a kubelet pulls what the pod names: only the image this build made can run here
            throw new IllegalStateException("pod " + pod + " asks for " + container.getImage() + ", but the image this"
                    + " build made is " + launch.image().digest());
        }
        return OperatorProcess.startInPod(pod, kubeconfig, podEnv, mounts, api.dir(), launch);
    }

    /** Secret volumes written to host directories, as a kubelet would; returns mountPath → directory. */
    private static Map<String, String> mountSecrets(KubernetesClient admin, PodSpec podSpec, Container container,
            String namespace, Path podDir) throws IOException {
        Map<String, String> mounts = new HashMap<>();
        for (VolumeMount mount : container.getVolumeMounts()) {
            Volume volume = podSpec.getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst()
                    .orElseThrow();
            if (volume.getSecret() == null) {
                continue;
            }
            Secret secret = admin.secrets().inNamespace(namespace).withName(volume.getSecret().getSecretName()).get();
            if (secret == null && Boolean.TRUE.equals(volume.getSecret().getOptional())) {
                continue;
            }
            if (secret == null) {
                throw new IllegalStateException("pod would not start: Secret " + volume.getSecret().getSecretName()
                        + " mounted at " + mount.getMountPath() + " does not exist");
            }
            Path dir = Files.createDirectories(podDir.resolve(mount.getName()));
            // the volume's items rename keys (OLM mounts tls.crt as apiserver.crt), as the kubelet does
            Map<String, String> paths = new HashMap<>();
            if (volume.getSecret().getItems() != null) {
                volume.getSecret().getItems().forEach(i -> paths.put(i.getKey(), i.getPath()));
            }
            for (var e : secret.getData().entrySet()) {
                if (!paths.isEmpty() && !paths.containsKey(e.getKey())) {
                    continue;
                }
                Files.write(dir.resolve(paths.getOrDefault(e.getKey(), e.getKey())), Base64.getDecoder().decode(e.getValue()));
            }
            mounts.put(mount.getMountPath(), dir.toString());
        }
        return mounts;
    }

    private static final java.util.regex.Pattern LABEL = java.util.regex.Pattern.compile("metadata\\.labels\\['(.+)'\\]");

    private static String value(EnvVar var, String namespace, String pod, Map<String, String> labels) {
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
        var label = field == null ? null : LABEL.matcher(field.getFieldPath());
        if (label != null && label.matches()) {
            // as the kubelet does: an absent label is an empty value
            return labels.getOrDefault(label.group(1), "");
        }
        throw new IllegalArgumentException("env " + var.getName() + ": source " + var.getValueFrom()
                + " is not emulated by the e2e suite; extend DeployedOperator");
    }
}
