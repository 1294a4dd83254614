package io.kubevirt.hco.simulator;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;

/**
 * Plays the four component operators: for each component CR that exists, writes the status a real
 * operator would (conditions, observed/target version, observedGeneration or heartbeats, per the
 * descriptor), or misbehaves as told. It knows the ground truth the gate must never contradict:
 * {@link #converged(String, String)}.
 */
public class ComponentSimulator implements AutoCloseable {

    /** How a simulated component operator behaves. */
    public enum Behaviour {
        /** Reports Available, not Progressing, not Degraded, at its running version. */
        HEALTHY,
        /** Writes nothing at all: the pod is Running but its first reconcile has not finished. */
        SILENT,
        /** Reports Degraded=True. */
        DEGRADED,
        /** Reports Progressing=True towards its running version, still observing the old one. */
        PROGRESSING,
        /** Writes a status of the wrong shape. */
        GARBAGE
    }

    private final KubernetesClient client;
    private final String namespace;
    private final Map<String, Behaviour> behaviour = new ConcurrentHashMap<>();
    private final Map<String, String> runningVersion = new ConcurrentHashMap<>();
    private final Map<String, String> reportedVersion = new ConcurrentHashMap<>();
    private ScheduledExecutorService loop;

    public ComponentSimulator(KubernetesClient client, String namespace, String version) {
        this.client = client;
        this.namespace = namespace;
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            behaviour.put(d.name(), Behaviour.HEALTHY);
            runningVersion.put(d.name(), version);
        }
    }

    public synchronized ComponentSimulator behave(String component, Behaviour b) {
        behaviour.put(component, b);
        return this;
    }

    public synchronized ComponentSimulator behaveAll(Behaviour b) {
        ComponentCatalog.ALL.forEach(d -> behaviour.put(d.name(), b));
        return this;
    }

    /** The component operator of that name now runs {@code version} (as after its own upgrade). */
    public synchronized ComponentSimulator runVersion(String component, String version) {
        runningVersion.put(component, version);
        return this;
    }

    public synchronized ComponentSimulator runVersionAll(String version) {
        ComponentCatalog.ALL.forEach(d -> runningVersion.put(d.name(), version));
        return this;
    }

    public synchronized Behaviour behaviour(String component) {
        return behaviour.get(component);
    }

    public synchronized String runningVersion(String component) {
        return runningVersion.get(component);
    }

    /**
     * Ground truth: the last status this component wrote was healthy at {@code version}, and it has
     * not moved on since (ticks and changes of behaviour are serialized, so this is exact).
     */
    public synchronized boolean converged(String component, String version) {
        return version.equals(reportedVersion.get(component)) && version.equals(runningVersion.get(component));
    }

    public void start(long periodMillis) {
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "component-simulator");
            t.setDaemon(true);
            return t;
        });
        loop.scheduleWithFixedDelay(this::tickQuietly, 0, periodMillis, TimeUnit.MILLISECONDS);
    }

    private void tickQuietly() {
        try {
            tick();
        } catch (RuntimeException e) {
            // a conflicting write: the next tick reports again, like a real operator's requeue
        }
    }

    /** One reconcile of every simulated component operator. */
    public synchronized void tick() {
        ComponentCatalog.ALL.forEach(d -> tick(d, NOTHING));
    }

    private static final Runnable NOTHING = () -> {
    };

    /** One reconcile of the simulated operator of {@code component} only (one status write at most). */
    public synchronized void tick(String component) {
        tick(component, NOTHING);
    }

    /** Like {@link #tick(String)}; {@code atWrite} runs right before the status write (the bench's clock starts there). */
    public synchronized void tick(String component, Runnable atWrite) {
        ComponentCatalog.ALL.stream().filter(d -> d.name().equals(component)).forEach(d -> tick(d, atWrite));
    }

    private void tick(ComponentDescriptor d, Runnable atWrite) {
        var all = io.kubevirt.hco.components.ComponentResources.of(client, d, namespace);
        var handle = all.withName(d.crName());
        GenericKubernetesResource cr = handle.get();
        if (cr == null || behaviour.get(d.name()) == Behaviour.SILENT) {
            return;
        }
        Object status = status(d, cr);
        cr.getAdditionalProperties().put("status", status);
        try {
            atWrite.run();
            all.resource(cr).updateStatus();
            if (behaviour.get(d.name()) == Behaviour.HEALTHY) {
                reportedVersion.put(d.name(), runningVersion.get(d.name()));
            } else {
                reportedVersion.remove(d.name());
            }
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }

    private Object status(ComponentDescriptor d, GenericKubernetesResource cr) {
        Behaviour b = behaviour.get(d.name());
        if (b == Behaviour.GARBAGE) {
            return Map.of("conditions", "all good, trust me", "observedGeneration", "seven");
        }
        String version = runningVersion.get(d.name());
        String previous = reportedVersion.getOrDefault(d.name(), version);
        boolean progressing = b == Behaviour.PROGRESSING;
        String now = Instant.now().toString();
        List<Map<String, Object>> conditions = new ArrayList<>();
        conditions.add(condition("Available", "True", "AsExpected", now, d));
        conditions.add(condition("Progressing", progressing ? "True" : "False",
                progressing ? "Upgrading" : "AsExpected", now, d));
        conditions.add(condition("Degraded", b == Behaviour.DEGRADED ? "True" : "False",
                b == Behaviour.DEGRADED ? "PodsCrashLooping" : "AsExpected", now, d));
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("conditions", conditions);
        status.put(d.observedVersionField(), progressing ? previous : version);
        if (d.targetVersionField() != null) {
            status.put(d.targetVersionField(), version);
        }
        status.put("operatorVersion", version);
        if (d.evidence() == io.kubevirt.hco.core.ObservationEvidence.OBSERVED_GENERATION) {
            status.put("observedGeneration", cr.getMetadata().getGeneration());
        }
        if (d.pausedField() != null) {
            status.put(d.pausedField(), false);
        }
        return status;
    }

    private static Map<String, Object> condition(String type, String status, String reason, String now,
            ComponentDescriptor d) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("type", type);
        c.put("status", status);
        c.put("reason", reason);
        c.put("message", type + " is " + status);
        c.put("lastTransitionTime", now);
        if (d.evidence() == io.kubevirt.hco.core.ObservationEvidence.HEARTBEAT_AFTER_SPEC_WRITE) {
            c.put("lastHeartbeatTime", now);
        } else {
            c.put("lastProbeTime", now);
        }
        return c;
    }

    @Override
    public void close() {
        if (loop != null) {
            loop.shutdownNow();
        }
    }
}
