package io.kubevirt.hco.simulator;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * One simulated component operator as its own process, configured the way the real image is: the
 * component by the image it stands in for (first argument, or {@code SIMULATED_IMAGE}: virt-operator,
 * cdi-operator, cluster-network-addons-operator, ssp-operator, or a full image reference), its
 * version from the env var that image reads ({@code KUBEVIRT_VERSION} for virt-operator,
 * {@code OPERATOR_VERSION} for the others), its namespace from the client's configuration (the
 * ServiceAccount's namespace in a pod, the kubeconfig's context otherwise).
 * <p>
 * Like the real operators after an image change, a process whose CR still reports another version
 * rolls out its operands first: it reports Progressing towards its own version for
 * {@code SIMULATED_UPGRADE_SECONDS} (default 5) before it reports that version.
 */
public final class ComponentOperatorMain {

    private ComponentOperatorMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> env = System.getenv();
        String image = args.length > 0 ? args[0] : env.get("SIMULATED_IMAGE");
        if (image == null || image.isBlank()) {
            fail("which component operator? give its image (virt-operator, cdi-operator, "
                    + "cluster-network-addons-operator, ssp-operator) as the argument or SIMULATED_IMAGE");
        }
        SimulatedComponent component = SimulatedComponent.forImage(image).orElseThrow(() -> new IllegalArgumentException(
                "no simulated component operator for image " + image + "; known: "
                        + SimulatedComponent.ALL.stream().map(SimulatedComponent::image).toList()));
        String version = env.get(component.versionEnv());
        if (version == null || version.isBlank()) {
            fail(component.image() + " needs its version in " + component.versionEnv() + ", as the real image does");
        }
        Duration upgrade = Duration.ofSeconds(Long.parseLong(env.getOrDefault("SIMULATED_UPGRADE_SECONDS", "5")));
        KubernetesClient client = new KubernetesClientBuilder().build();
        String namespace = client.getNamespace();
        ComponentSimulator simulator = new ComponentSimulator(client, namespace, version, List.of(component));
        String previous = reportedVersion(component, component.managed(client, namespace).get());
        if (previous != null && !previous.equals(version) && !upgrade.isZero()) {
            simulator.upgradingFrom(component.name(), previous, version);
        }
        simulator.watch();
        System.out.printf("[%s] simulated %s %s in namespace %s%s%n", component.image(), component.name(), version,
                namespace, previous != null && !previous.equals(version) ? ", upgrading from " + previous : "");
        if (previous != null && !previous.equals(version) && !upgrade.isZero()) {
            Thread.sleep(upgrade.toMillis()); // the operands' rollout this process stands in for
            simulator.behave(component.name(), ComponentSimulator.Behaviour.HEALTHY);
            System.out.printf("[%s] %s now at %s%n", component.image(), component.name(), version);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            simulator.close();
            client.close();
            stopped.countDown();
        }));
        stopped.await();
    }

    private static String reportedVersion(SimulatedComponent component, GenericKubernetesResource cr) {
        return cr != null && cr.getAdditionalProperties().get("status") instanceof Map<?, ?> status
                && status.get(component.observedVersionField()) instanceof String v ? v : null;
    }

    private static void fail(String message) {
        System.err.println("component simulator: " + message);
        System.exit(2);
    }
}
