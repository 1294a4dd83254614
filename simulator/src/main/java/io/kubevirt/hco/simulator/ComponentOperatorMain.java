package io.kubevirt.hco.simulator;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;

/**
 * One simulated component operator as its own process, configured the way the real image is: the
 * component by the image it stands in for (first argument, or {@code SIMULATED_IMAGE}: virt-operator,
 * cdi-operator, cluster-network-addons-operator, ssp-operator, or a full image reference), its
 * version from the env var that image reads ({@code KUBEVIRT_VERSION} for virt-operator,
 * {@code OPERATOR_VERSION} for the others), its namespace from the client's configuration (the
 * ServiceAccount's namespace in a pod, the kubeconfig's context otherwise).
 * <p>
 * Like the real operators, one replica works at a time (a Lease named after the image), and after
 * an image change the new one rolls out its operands first: while its CR still reports another
 * version, it reports Progressing towards its own for {@code SIMULATED_UPGRADE_SECONDS} (default 5)
 * before it reports that version. {@code SIMULATED_BEHAVIOUR} (silent, degraded, progressing,
 * garbage) makes it misbehave for its whole life instead.
 */
public final class ComponentOperatorMain {

    private ComponentOperatorMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        initialiseLogging();
        Map<String, String> env = System.getenv();
        String image = args.length > 0 ? args[0] : env.get("SIMULATED_IMAGE");
        if (image == null || image.isBlank()) {
            fail("which component operator? give its image (virt-operator, cdi-operator, "
                    + "cluster-network-addons-operator, ssp-operator) as the argument or SIMULATED_IMAGE");
        }
        SimulatedComponent component = SimulatedComponent.forImage(image).orElse(null);
        if (component == null) {
            fail("no simulated component operator for image " + image + "; known: "
                    + SimulatedComponent.ALL.stream().map(SimulatedComponent::image).toList());
            return;
        }
        String version = env.get(component.versionEnv());
        if (version == null || version.isBlank()) {
            fail(component.image() + " needs its version in " + component.versionEnv() + ", as the real image does");
        }
        if (component == SimulatedComponent.SSP) {
            SimulatedWebhook.serveIfCertified(component.image(), env);
        }
        Duration upgrade = Duration.ofSeconds(Long.parseLong(env.getOrDefault("SIMULATED_UPGRADE_SECONDS", "5")));
        ComponentSimulator.Behaviour behaviour = behaviour(env.get("SIMULATED_BEHAVIOUR"));
        KubernetesClient client = new KubernetesClientBuilder().build();
        String namespace = client.getNamespace();
        String identity = env.getOrDefault("POD_NAME", env.getOrDefault("HOSTNAME", component.image() + "-" + ProcessHandle.current().pid()));
        CountDownLatch stopped = new CountDownLatch(1);
        ComponentSimulator[] running = new ComponentSimulator[1];
        // like the real operators, one replica works at a time: during a rolling update the old and
        // the new pod never both write the CR's status
        var elector = client.leaderElector().withConfig(new LeaderElectionConfigBuilder()
                .withName(component.image()).withLock(new UpdatingLeaseLock(namespace, component.image() + "-lock", identity))
                .withLeaseDuration(Duration.ofSeconds(15)).withRenewDeadline(Duration.ofSeconds(10))
                .withRetryPeriod(Duration.ofSeconds(2)).withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(() -> running[0] = leadOrExit(client, namespace, component, version, upgrade, behaviour),
                        stopped::countDown, leader -> System.out.printf("[%s] leader: %s%n", component.image(), leader)))
                .build()).build();
        var election = elector.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            election.cancel(true);
            if (running[0] != null) {
                running[0].close();
            }
            stopped.countDown();
        }));
        stopped.await();
        client.close();
    }

    /**
     * A start that fails (its RBAC not bound yet: the chart's ClusterRoleBinding can land after the
     * pod starts) ends the process with the reason, as a real operator's manager exits on a
     * startup error and its container is restarted. The leader elector would otherwise swallow
     * the exception and the process would hold the lease doing nothing.
     */
    private static ComponentSimulator leadOrExit(KubernetesClient client, String namespace, SimulatedComponent component,
            String version, Duration upgrade, ComponentSimulator.Behaviour behaviour) {
        try {
            return lead(client, namespace, component, version, upgrade, behaviour);
        } catch (RuntimeException e) {
            System.err.printf("[%s] could not start: %s; exiting%n", component.image(), e.getMessage());
            System.err.flush();
            Runtime.getRuntime().halt(1);
            return null;
        }
    }

    /** The work of the leader: reconcile the CR, rolling out its own version first when it is new. */
    private static ComponentSimulator lead(KubernetesClient client, String namespace, SimulatedComponent component,
            String version, Duration upgrade, ComponentSimulator.Behaviour behaviour) {
        ComponentSimulator simulator = new ComponentSimulator(client, namespace, version, List.of(component));
        if (behaviour != ComponentSimulator.Behaviour.HEALTHY) {
            // a scripted misbehaviour for the whole life of this process (a demo's silent operator)
            simulator.behave(component.name(), behaviour);
            simulator.watch();
            System.out.printf("[%s] simulated %s %s, %s%n", component.image(), component.name(), version, behaviour);
            return simulator;
        }
        String previous = reportedVersion(component, component.read(client, namespace));
        boolean upgrading = previous != null && !previous.equals(version) && !upgrade.isZero();
        if (upgrading) {
            simulator.upgradingFrom(component.name(), previous, version);
        }
        simulator.watch();
        System.out.printf("[%s] simulated %s %s in namespace %s%s%n", component.image(), component.name(), version,
                namespace, upgrading ? ", upgrading from " + previous : "");
        if (upgrading) {
            // the operands' rollout this process stands in for
            Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "operand-rollout");
                t.setDaemon(true);
                return t;
            }).schedule(() -> {
                simulator.behave(component.name(), ComponentSimulator.Behaviour.HEALTHY);
                System.out.printf("[%s] %s now at %s%n", component.image(), component.name(), version);
            }, upgrade.toMillis(), TimeUnit.MILLISECONDS);
        }
        return simulator;
    }


    /** {@code SIMULATED_BEHAVIOUR}: healthy (default), silent, degraded, progressing or garbage. */
    private static ComponentSimulator.Behaviour behaviour(String value) {
        if (value == null || value.isBlank()) {
            return ComponentSimulator.Behaviour.HEALTHY;
        }
        try {
            return ComponentSimulator.Behaviour.valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            fail("SIMULATED_BEHAVIOUR=" + value + " is not one of "
                    + java.util.Arrays.toString(ComponentSimulator.Behaviour.values()).toLowerCase(java.util.Locale.ROOT));
            return null;
        }
    }

    private static String reportedVersion(SimulatedComponent component, GenericKubernetesResource cr) {
        return cr != null && cr.getAdditionalProperties().get("status") instanceof Map<?, ?> status
                && status.get(component.observedVersionField()) instanceof String v ? v : null;
    }

    /**
     * Logging is set up here, on the main thread, before any other thread starts. With JBoss
     * LogManager on the class path (it is, beside Quarkus), the client's first logger on one thread
     * and the webhook server's on another deadlocked in their class initialisation, and the
     * process hung silently before it ever reconciled.
     */
    private static void initialiseLogging() {
        try {
            Class.forName("org.jboss.logmanager.LogManager", false, ComponentOperatorMain.class.getClassLoader());
            System.getProperties().putIfAbsent("java.util.logging.manager", "org.jboss.logmanager.LogManager");
        } catch (ClassNotFoundException plainJdkLogging) {
            // the JDK's own LogManager initialises safely from any thread
        }
        java.util.logging.LogManager.getLogManager();
    }

    private static void fail(String message) {
        System.err.println("component simulator: " + message);
        System.exit(2);
    }
}
