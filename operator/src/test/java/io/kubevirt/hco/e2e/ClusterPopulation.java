package io.kubevirt.hco.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Fills an API server with Nodes and Pods as a big cluster holds them: objects only, nothing runs
 * them (no kubelet, no scheduler). Each Node carries the status a kubelet reports (capacity,
 * conditions, addresses, node info, a list of cached images), because that is what an informer
 * of whole Nodes would keep; each Pod a spec and status of the usual size.
 */
public final class ClusterPopulation {

    static final int IMAGES_PER_NODE = 40;

    private ClusterPopulation() {
    }

    /** Creates {@code count} Nodes, nine in ten of them labelled workers; returns the time taken, ms. */
    public static long nodes(KubernetesClient admin, int count) throws Exception {
        return inParallel(count, i -> {
            Node created = admin.nodes().resource(node(i)).create();
            // the API server drops a Node's status on create: a kubelet writes it next, as here
            created.setStatus(node(i).getStatus());
            admin.nodes().resource(created).updateStatus();
        });
    }

    /** Creates {@code count} Pods in {@code namespaces} namespaces (made here, with their default ServiceAccount). */
    public static long pods(KubernetesClient admin, int count, int namespaces) throws Exception {
        for (int n = 0; n < namespaces; n++) {
            String ns = namespace(n);
            ClusterSetup.createNamespace(admin, ns);
            try {
                // no controller-manager runs here to make it, and admission wants it for every Pod
                admin.serviceAccounts().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                        .withNewMetadata().withName("default").endMetadata().build()).create();
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
            }
        }
        return inParallel(count, i -> admin.pods().inNamespace(namespace(i % namespaces)).resource(pod(i)).create());
    }

    static String namespace(int n) {
        return "workload-" + n;
    }

    private static long inParallel(int count, IntConsumer create) throws Exception {
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                done.add(pool.submit(() -> create.accept(index)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return (System.nanoTime() - started) / 1_000_000;
    }

    static Node node(int i) {
        String name = "node-" + i;
        NodeBuilder b = new NodeBuilder().withNewMetadata().withName(name)
                .withLabels(Map.of("kubernetes.io/hostname", name, "kubernetes.io/os", "linux", "kubernetes.io/arch", "amd64",
                        i % 10 == 0 ? "node-role.kubernetes.io/control-plane" : "node-role.kubernetes.io/worker", "",
                        "topology.kubernetes.io/zone", "zone-" + (i % 3)))
                .endMetadata()
                .withNewSpec().withPodCIDR("10.128." + (i / 256 % 256) + "." + (i % 256) + "/32").endSpec();
        var status = b.withNewStatus()
                .withCapacity(Map.of("cpu", new Quantity("64"), "memory", new Quantity("256Gi"), "pods", new Quantity("250"),
                        "devices.kubevirt.io/kvm", new Quantity("1k")))
                .withAllocatable(Map.of("cpu", new Quantity("63500m"), "memory", new Quantity("250Gi"),
                        "pods", new Quantity("250"), "devices.kubevirt.io/kvm", new Quantity("1k")))
                .addNewAddress().withType("InternalIP").withAddress("10.0." + (i / 256 % 256) + "." + (i % 256)).endAddress()
                .addNewAddress().withType("Hostname").withAddress(name).endAddress()
                .withNewNodeInfo().withMachineID("m" + i).withSystemUUID("u" + i).withBootID("b" + i)
                .withKernelVersion("5.14.0-427.el9.x86_64").withOsImage("Red Hat Enterprise Linux CoreOS")
                .withContainerRuntimeVersion("cri-o://1.30.4").withKubeletVersion("v1.30.4").withKubeProxyVersion("v1.30.4")
                .withOperatingSystem("linux").withArchitecture("amd64").endNodeInfo();
        for (String type : List.of("MemoryPressure", "DiskPressure", "PIDPressure", "Ready")) {
            status.addNewCondition().withType(type).withStatus(type.equals("Ready") ? "True" : "False")
                    .withReason(type.equals("Ready") ? "KubeletReady" : "KubeletHasSufficient" + type)
                    .withMessage("kubelet reports " + type).withLastHeartbeatTime("2026-12-06T00:00:00Z")
                    .withLastTransitionTime("2026-12-01T00:00:00Z").endCondition();
        }
        for (int image = 0; image < IMAGES_PER_NODE; image++) {
            status.addNewImage().withNames("registry.example/workloads/image-" + image + "@sha256:"
                    + String.format("%064x", (long) image * 7919 + i), "registry.example/workloads/image-" + image + ":v1")
                    .withSizeBytes(100_000_000L + image).endImage();
        }
        return status.endStatus().build();
    }

    static Pod pod(int i) {
        return new PodBuilder().withNewMetadata().withName("workload-" + i)
                .withLabels(Map.of("app", "workload-" + (i % 100), "pod-template-hash", Integer.toHexString(i % 4096)))
                .endMetadata()
                .withNewSpec().withNodeName("node-" + (i % 5000)).withAutomountServiceAccountToken(false)
                .addNewContainer().withName("main").withImage("registry.example/workloads/image-" + (i % 40) + ":v1")
                .withArgs("--serve", "--port=8080").addNewPort().withContainerPort(8080).endPort()
                .withNewResources().withRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("128Mi")))
                .endResources().endContainer().endSpec().build();
    }
}
