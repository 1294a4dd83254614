package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a container runtime would start the image's entrypoint, without one: in a mount namespace of
 * its own ({@code unshare -m}), the image's root filesystem bound read-only (the chart's
 * readOnlyRootFilesystem), /proc, /dev, a tmpfs /tmp, the pod's volumes at their mount paths and
 * the ServiceAccount's token, CA and namespace at the in-cluster path; then, from the image's working
 * directory, {@code nsenter --root -S -G} enters that root as the image's user. The process env is the image's Env, then the
 * pod's, then the in-cluster API address (KUBERNETES_SERVICE_HOST/PORT), as the kubelet sets them:
 * no kubeconfig, no host environment. The network is the host's (a pod IP here is the host).
 */
final class ContainerRun {

    static final String SERVICE_ACCOUNT = "/var/run/secrets/kubernetes.io/serviceaccount";
    private static final Pattern SERVER = Pattern.compile("server: https://([^:]+):(\\d+)");
    private static final Pattern TOKEN = Pattern.compile("token: (\\S+)");
    private static final Pattern NAMESPACE = Pattern.compile("namespace: (\\S+)");

    private ContainerRun() {
    }

    /**
     * The command that runs {@code image} as a pod whose files go to {@code podDir}; {@code mounts} are the pod's volumes
     * (mount path → directory on this host); {@code kubeconfig} names the API server and the
     * ServiceAccount's token, which become the in-cluster files.
     */
    static List<String> command(ContainerImage image, Path podDir, Path kubeconfig, Path apiServerCa,
            Map<String, String> mounts) throws IOException, InterruptedException {
        Path rootfs = image.rootfs();
        Path serviceAccount = Files.createDirectories(podDir.resolve("serviceaccount"));
        String config = Files.readString(kubeconfig);
        Files.writeString(serviceAccount.resolve("token"), find(TOKEN, config, kubeconfig).group(1));
        Files.copy(apiServerCa, serviceAccount.resolve("ca.crt"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(serviceAccount.resolve("namespace"), find(NAMESPACE, config, kubeconfig).group(1));
        Path root = Files.createDirectories(podDir.resolve("root"));
        StringBuilder script = new StringBuilder("set -eu\n");
        // mount points for the pod's volumes, made in the image's tree before it is bound read-only
        for (String path : mounts.keySet()) {
            script.append("mkdir -p ").append(q(rootfs + path)).append('\n');
        }
        script.append("mount --bind ").append(q(rootfs)).append(' ').append(q(root)).append('\n')
                .append("mount -o remount,bind,ro ").append(q(root)).append('\n')
                .append("mount -t proc proc ").append(q(root + "/proc")).append('\n')
                .append("mount --rbind /dev ").append(q(root + "/dev")).append('\n')
                .append("mount -t tmpfs -o mode=1777 tmpfs ").append(q(root + "/tmp")).append('\n')
                .append("mount --bind -o ro ").append(q(serviceAccount)).append(' ').append(q(root + SERVICE_ACCOUNT))
                .append('\n');
        for (var m : mounts.entrySet()) {
            script.append("mount --bind -o ro ").append(q(m.getValue())).append(' ').append(q(root + m.getKey()))
                    .append('\n');
        }
        String[] user = image.userAndGroup();
        // the working directory is entered before the root (nsenter's --wd would look it up on the host)
        script.append("cd ").append(q(root + image.workingDirectory())).append('\n')
                .append("exec nsenter --root=").append(q(root)).append(" -S ").append(user[0]).append(" -G ")
                .append(user[1]);
        for (String arg : image.entrypoint()) {
            script.append(' ').append(q(arg));
        }
        script.append('\n');
        Path file = podDir.resolve("container.sh");
        Files.writeString(file, script);
        // no --fork: the shell, then nsenter, then the entrypoint replace each other in one process,
        // so that signals (SIGTERM on delete, SIGKILL on kill) reach the operator itself
        return new ArrayList<>(List.of("unshare", "--mount", "--propagation", "private", "sh", file.toString()));
    }

    /**
     * The process env of the container: the runtime's PATH and HOSTNAME (the pod's name), the
     * image's Env, the pod's, the in-cluster API address.
     */
    static Map<String, String> environment(ContainerImage image, String pod, Path kubeconfig, Map<String, String> podEnv)
            throws IOException {
        Map<String, String> env = new java.util.HashMap<>();
        env.put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
        env.put("HOSTNAME", pod);
        env.putAll(image.env());
        podEnv.forEach((k, v) -> {
            if (v != null) {
                env.put(k, v);
            }
        });
        Matcher server = find(SERVER, Files.readString(kubeconfig), kubeconfig);
        env.put("KUBERNETES_SERVICE_HOST", server.group(1));
        env.put("KUBERNETES_SERVICE_PORT", server.group(2));
        return env;
    }

    private static Matcher find(Pattern pattern, String text, Path file) throws IOException {
        Matcher m = pattern.matcher(text);
        if (!m.find()) {
            throw new IOException(file + " has no " + pattern.pattern());
        }
        return m;
    }

    private static String q(Object s) {
        return "'" + s.toString().replace("'", "'\\''") + "'";
    }
}
