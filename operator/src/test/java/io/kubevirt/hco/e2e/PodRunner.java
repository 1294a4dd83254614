package io.kubevirt.hco.e2e;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The kubelet this machine does not have, for one namespace: binds each new pod to a fake node, runs
 * the real operator on the host with the pod's env and ServiceAccount (OperatorProcess), mirrors that
 * process's own readiness endpoint into the pod's Ready condition, starts the process again when it
 * exits (restartPolicy Always, counted in restartCount), and stops it when the pod is deleted
 * (confirming the deletion, as a kubelet does). The component operators' pods (the images the
 * release ships) run the simulated component operator of that image (ComponentOperatorProcess).
 *
 * <p>With real component operators ({@link #withRealComponents}), the pod runner is the kubelet of
 * its own node only: the operators' pods (ours, virt-operator's, the network add-ons operator's, the
 * simulated ones) are bound to it and run here, reporting this host's non-loopback address as pod IP
 * (the API server reaches their webhooks through the endpoints, and refuses loopback addresses
 * there); every other pod (the operands they deploy) is bound to a KWOK node, where KWOK plays its
 * lifecycle. A DaemonSet's pod for this node whose image nothing here runs is reported running, as
 * KWOK would. A pod whose restartPolicy is not Always (a Job's) ends Succeeded or Failed by its
 * process' exit code instead of being restarted.
 */
final class PodRunner implements AutoCloseable {

    static final String NODE = "e2e-node";

    private final RealApiServer api;
    private final KubernetesClient admin;
    private final String namespace;
    private boolean realComponents;
    /** How our operator's pods are run: the jar, or the operator image as a container ({@link #fromImage}). */
    private OperatorLaunch launch = OperatorLaunch.standard();
    /**
     * The component operators' pods' IP: this host's non-loopback address, so that the API server
     * reaches the webhooks they serve through their endpoints (it refuses loopback endpoints). Our
     * operator's pods keep the loopback address: its replicas share this host, so the conversion
     * webhook cannot listen on the pod's port for each, and an endpoint nobody listens on would stall
     * every HyperConverged list the API server converts (it did); with no endpoint it fails at once.
     */
    private final String podIp = hostAddress();
    private String kwokNode;
    private final Map<String, Integer> exited = new ConcurrentHashMap<>();
    private final Map<String, PodProcess> running = new ConcurrentHashMap<>();
    private final Map<String, Integer> restarts = new ConcurrentHashMap<>();
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "pod-runner");
        t.setDaemon(true);
        return t;
    });

    PodRunner(RealApiServer api, String namespace) {
        this.api = api;
        this.admin = api.admin();
        this.namespace = namespace;
    }

    /** Real component operators where the suite builds them; operands on {@code kwokNode}. */
    PodRunner withRealComponents(String kwokNode) {
        this.realComponents = true;
        this.kwokNode = kwokNode;
        return this;
    }

    /** Our operator's pods run the operator image's entrypoint in its root filesystem, as a container runtime would. */
    PodRunner fromImage() {
        this.launch = OperatorLaunch.fromImage();
        return this;
    }

    /** This host's first non-loopback IPv4 address: the pod IP of the processes the pod runner runs. */
    static String hostAddress() {
        try {
            for (var nic : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback()) {
                    continue;
                }
                for (var a : java.util.Collections.list(nic.getInetAddresses())) {
                    if (a instanceof java.net.Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                        return a.getHostAddress();
                    }
                }
            }
        } catch (java.net.SocketException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("no non-loopback IPv4 address on this host: the API server cannot reach"
                + " the webhooks of the operators run here");
    }

    PodRunner start() {
        if (admin.nodes().withName(NODE).get() == null) {
            var spec = new io.fabric8.kubernetes.api.model.NodeSpecBuilder();
            if (kwokNode != null) {
                // the operators' node: DaemonSet operands that do not tolerate everything go to KWOK's only
                spec.addNewTaint().withKey("hco.kubevirt.io/e2e-local-processes").withEffect("NoSchedule").endTaint();
            }
            var node = admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata()
                    .withSpec(spec.build()).build()).create();
            node.setStatus(new io.fabric8.kubernetes.api.model.NodeStatusBuilder().withConditions(
                    new NodeConditionBuilder().withType("Ready").withStatus("True").withReason("KubeletReady")
                            .withLastHeartbeatTime(Instant.now().toString())
                            .withLastTransitionTime(Instant.now().toString()).build())
                    .build());
            admin.nodes().resource(node).updateStatus();
        }
        loop.scheduleWithFixedDelay(this::syncQuietly, 0, 300, TimeUnit.MILLISECONDS);
        return this;
    }

    private void syncQuietly() {
        try {
            sync();
        } catch (KubernetesClientException e) {
            // a conflict or a pod gone meanwhile: the next pass sees the new state
        } catch (Exception e) {
            System.err.println("[pod-runner] " + e);
        }
    }

    private void sync() throws Exception {
        List<Pod> pods = admin.pods().inNamespace(namespace).list().getItems();
        List<String> names = new ArrayList<>();
        for (Pod pod : pods) {
            String name = pod.getMetadata().getName();
            names.add(name);
            if (pod.getMetadata().getDeletionTimestamp() != null) {
                stop(name);
                admin.pods().inNamespace(namespace).withName(name).withGracePeriod(0).delete();
                continue;
            }
            if (pod.getSpec().getNodeName() == null) {
                admin.bindings().inNamespace(namespace).resource(new BindingBuilder().withNewMetadata().withName(name)
                        .endMetadata().withNewTarget().withKind("Node").withName(nodeFor(pod)).endTarget().build()).create();
                continue;
            }
            if (!NODE.equals(pod.getSpec().getNodeName())) {
                continue; // KWOK's
            }
            if (kwokNode != null && !runnable(pod)) {
                report(pod, true, true);
                continue;
            }
            if (exited.containsKey(name)) {
                continue; // a Job's pod that ended: its phase is final
            }
            PodProcess process = running.get(name);
            if (process != null && !process.alive() && !"Always".equals(restartPolicy(pod))) {
                int code = process.exitCode() == null ? 1 : process.exitCode();
                System.out.println("[pod-runner] " + name + ": container exited with " + code);
                process.close();
                running.remove(name);
                exited.put(name, code);
                finish(pod, code);
                continue;
            }
            if (process != null && !process.alive()) {
                // restartPolicy Always: the container is started again, in the same pod (same name)
                System.out.println("[pod-runner] " + name + ": container exited, restarting it");
                process.close();
                running.remove(name);
                process = null;
                restarts.merge(name, 1, Integer::sum);
            }
            if (process == null) {
                process = DeployedOperator.startContainer(api, admin, name, pod.getMetadata().getLabels(), pod.getSpec(),
                        namespace, Map.of(), realComponents, launch);
                running.put(name, process);
            }
            report(pod, process.alive(), process.ready());
        }
        for (String name : List.copyOf(running.keySet())) {
            if (!names.contains(name)) {
                stop(name);
            }
        }
    }

    private static String restartPolicy(Pod pod) {
        return pod.getSpec().getRestartPolicy() == null ? "Always" : pod.getSpec().getRestartPolicy();
    }

    /** The operators' pods run here; with KWOK, the operands go to its node (a DaemonSet's to the node it names). */
    private String nodeFor(Pod pod) {
        if (kwokNode == null || runnable(pod)) {
            return NODE;
        }
        var affinity = pod.getSpec().getAffinity();
        if (affinity != null && affinity.getNodeAffinity() != null
                && affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() != null) {
            for (var term : affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                    .getNodeSelectorTerms()) {
                for (var field : term.getMatchFields() == null ? List.<io.fabric8.kubernetes.api.model.NodeSelectorRequirement>of()
                        : term.getMatchFields()) {
                    if ("metadata.name".equals(field.getKey()) && field.getValues() != null && !field.getValues().isEmpty()) {
                        return field.getValues().get(0);
                    }
                }
            }
        }
        return kwokNode;
    }

    /** Whether a process here stands for the pod's container: ours, a component operator's (real or simulated). */
    private boolean runnable(Pod pod) {
        var container = pod.getSpec().getContainers().get(0);
        String image = container.getImage();
        return "hco-operator".equals(container.getName())
                || io.kubevirt.hco.simulator.SimulatedComponent.forImage(image).isPresent()
                || (realComponents && RealComponentProcess.Kind.forImage(image).isPresent());
    }

    /** A Job's pod whose container ended: Succeeded on exit code 0, else Failed, as the kubelet reports it. */
    private void finish(Pod pod, int code) {
        String now = Instant.now().toString();
        String started = pod.getStatus() != null && pod.getStatus().getStartTime() != null ? pod.getStatus().getStartTime()
                : now;
        write(pod, code == 0 ? "Succeeded" : "Failed", false, false, 0, started, now,
                new io.fabric8.kubernetes.api.model.ContainerStateBuilder().withNewTerminated().withExitCode(code)
                        .withReason(code == 0 ? "Completed" : "Error").withStartedAt(started).withFinishedAt(now)
                        .endTerminated().build());
    }

    /** The pod's status as a kubelet would write it, only when it changes. */
    private void report(Pod pod, boolean alive, boolean ready) {
        PodStatus current = pod.getStatus();
        String phase = "Running";
        int restartCount = restarts.getOrDefault(pod.getMetadata().getName(), 0);
        if (current != null && phase.equals(current.getPhase()) && ready == ready(current)
                && restartCount == restartCount(current)) {
            return;
        }
        String now = Instant.now().toString();
        String started = current != null && current.getStartTime() != null ? current.getStartTime() : now;
        write(pod, phase, alive, ready, restartCount, started, now, new io.fabric8.kubernetes.api.model.ContainerStateBuilder()
                .withNewRunning().withStartedAt(started).endRunning().build());
    }

    /** The pod's status with its first container in {@code state}, at this host's address for the pod. */
    private void write(Pod pod, String phase, boolean started, boolean ready, int restartCount, String startTime,
            String now, io.fabric8.kubernetes.api.model.ContainerState state) {
        var container = pod.getSpec().getContainers().get(0);
        String ip = "hco-operator".equals(container.getName()) ? "127.0.0.1" : podIp;
        pod.setStatus(new PodStatusBuilder().withPhase(phase).withHostIP(ip).withPodIP(ip).withStartTime(startTime)
                .withConditions(condition("PodScheduled", true, now), condition("Initialized", true, now),
                        condition("ContainersReady", ready, now), condition("Ready", ready, now))
                .withContainerStatuses(new ContainerStatusBuilder().withName(container.getName()).withReady(ready)
                        .withStarted(started).withRestartCount(restartCount).withImage(container.getImage())
                        .withImageID("").withState(state).build())
                .build());
        admin.pods().inNamespace(namespace).resource(pod).updateStatus();
    }

    private static int restartCount(PodStatus status) {
        return status.getContainerStatuses() == null || status.getContainerStatuses().isEmpty() ? 0
                : status.getContainerStatuses().get(0).getRestartCount();
    }

    /** How often the container of pod {@code name} was restarted. */
    int restarts(String name) {
        return restarts.getOrDefault(name, 0);
    }

    private static boolean ready(PodStatus status) {
        return status.getConditions() != null && status.getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static PodCondition condition(String type, boolean status, String now) {
        return new PodConditionBuilder().withType(type).withStatus(status ? "True" : "False")
                .withLastTransitionTime(now).build();
    }

    private void stop(String pod) throws InterruptedException {
        PodProcess process = running.remove(pod);
        if (process != null) {
            process.close();
        }
    }

    @Override
    public void close() throws InterruptedException {
        loop.shutdownNow();
        loop.awaitTermination(10, TimeUnit.SECONDS);
        for (String pod : List.copyOf(running.keySet())) {
            stop(pod);
        }
    }
}
