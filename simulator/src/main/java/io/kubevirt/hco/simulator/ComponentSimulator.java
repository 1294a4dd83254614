package io.kubevirt.hco.simulator;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;

/**
 * Plays the four component operators with the status habits of the real ones: conditions carry
 * whole-second times ({@code metav1.Time}), heartbeats from the component's own clock (none for
 * cluster-network-addons); CDI writes its status with whole-object updates (its CRD has no status
 * subresource); a status is written only when it differs from the one there, heartbeats aside; a
 * change of what an operator renders rolls its operands, which cluster-network-addons reports as
 * Progressing and CDI as Degraded for a moment, and a change of anything else makes it write
 * nothing. Two ways to run it:
 * <ul>
 * <li>{@link #watch()}: event-only, as the real ones run: a component reconciles when its CR's
 * spec changes, or when it is told to change (behaviour, version); a quiet stack writes nothing;</li>
 * <li>{@link #start(long)}: periodic, for the demo and dev mode, where something should move.</li>
 * </ul>
 * It knows the ground truth the gate must never contradict: {@link #converged(String, String)}.
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
    private final List<SimulatedComponent> components;
    /** Per component, everything the simulated operator knows of itself. */
    private final Map<String, OperatorState> state = new ConcurrentHashMap<>();
    /** How long operands roll: the real cluster-network-addons wrote Progressing and Available within a second. */
    static final java.time.Duration ROLLOUT = java.time.Duration.ofMillis(300);

    /**
     * What each component CR's operands were last rendered from, by the CR's uid. Operands are
     * cluster objects owned by the CR: a component operator that starts (a new simulator, as each
     * test makes one) finds them as its predecessor left them, and rolls them if the spec it now
     * reads renders differently, as the real ones do; they go with the CR (a new uid). Kept only
     * in this process's memory, which outlives the simulators of one cluster. Before this, a
     * simulator started after the operator had written a new spec took that spec as its first
     * and rolled nothing: cluster-network-addons then wrote no status for it, and the gate waited
     * for one that never came (GateLifecycleTest, on a slow CI machine).
     */
    private static final Map<String, String> OPERANDS = new ConcurrentHashMap<>();

    private final List<Watch> watches = new ArrayList<>();
    private final Clock clock = Clock.systemUTC();
    private ScheduledExecutorService loop;
    private volatile boolean eventDriven;
    private volatile long statusWrites;

    public ComponentSimulator(KubernetesClient client, String namespace, String version) {
        this(client, namespace, version, SimulatedComponent.ALL);
    }

    /** Plays only {@code components} (one, when it runs as that component operator's process). */
    public ComponentSimulator(KubernetesClient client, String namespace, String version,
            List<SimulatedComponent> components) {
        this.client = client;
        this.namespace = namespace;
        this.components = List.copyOf(components);
        for (SimulatedComponent d : components) {
            state.put(d.name(), new OperatorState(version));
        }
    }

    public ComponentSimulator behave(String component, Behaviour b) {
        synchronized (this) {
            state.get(component).behaviour = b;
        }
        changed(component);
        return this;
    }

    public ComponentSimulator behaveAll(Behaviour b) {
        components.forEach(d -> behave(d.name(), b));
        return this;
    }

    /** The component operator of that name now runs {@code version} (as after its own upgrade). */
    public ComponentSimulator runVersion(String component, String version) {
        synchronized (this) {
            state.get(component).runningVersion = version;
        }
        changed(component);
        return this;
    }

    public ComponentSimulator runVersionAll(String version) {
        components.forEach(d -> runVersion(d.name(), version));
        return this;
    }

    /**
     * The component operator of that name was just replaced by one running {@code version} while
     * its CR still reports {@code previousVersion}: it reports Progressing towards {@code version},
     * as a real operator does while it rolls out its operands, until told otherwise.
     */
    public ComponentSimulator upgradingFrom(String component, String previousVersion, String version) {
        synchronized (this) {
            OperatorState o = state.get(component);
            o.runningVersion = version;
            o.reportedVersion = previousVersion;
            o.behaviour = Behaviour.PROGRESSING;
        }
        changed(component);
        return this;
    }

    public ComponentSimulator habits(String component, ComponentHabits h) {
        state.get(component).habits = h;
        return this;
    }

    public ComponentSimulator habitsAll(ComponentHabits h) {
        components.forEach(d -> state.get(d.name()).habits = h);
        return this;
    }

    public synchronized Behaviour behaviour(String component) {
        return state.get(component).behaviour;
    }

    public synchronized String runningVersion(String component) {
        return state.get(component).runningVersion;
    }

    /** Status writes made so far (an idle event-driven stack makes none). */
    public long statusWrites() {
        return statusWrites;
    }

    /**
     * Ground truth: the last status this component wrote was healthy at {@code version}, for what it
     * renders of the spec its CR carries now, and it has not moved on since (reconciles and changes
     * of behaviour are serialized, so this is exact).
     */
    public synchronized boolean converged(String component, String version) {
        SimulatedComponent d = descriptor(component);
        GenericKubernetesResource cr = d.read(client, namespace);
        OperatorState o = state.get(component);
        return cr != null && version.equals(o.reportedVersion) && version.equals(o.runningVersion)
                && Objects.equals(o.reportedSpec, renderedOf(d, cr));
    }

    /**
     * Ground truth as the cluster showed it at {@code cr}'s revision (a CR read or watched at some
     * resourceVersion R): the last status this component wrote at or before R was healthy at
     * {@code version}, running it, for what it renders of the spec {@code cr} carries. A claim the
     * gate wrote at R is judged on this, not on the simulator's state when the claim is looked at
     * (it may have moved on since). False when that write is no longer kept.
     */
    public boolean convergedAsOf(GenericKubernetesResource cr, String version) {
        SimulatedComponent d = SimulatedComponent.ALL.stream().filter(c -> c.kind().equals(cr.getKind())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("not a component CR: " + cr.getKind()));
        OperatorState o = state.get(d.name());
        OperatorState.Written w = o == null ? null
                : o.writtenAsOf(Long.parseLong(cr.getMetadata().getResourceVersion()));
        return w != null && version.equals(w.reportedVersion()) && version.equals(w.runningVersion())
                && Objects.equals(w.reportedSpec(), renderedOf(d, cr));
    }

    /** Periodic mode (demo, dev mode): every component reconciles every {@code periodMillis}, heartbeats refreshed. */
    public void start(long periodMillis) {
        loop = executor();
        loop.scheduleWithFixedDelay(this::tickQuietly, 0, periodMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * Event-only mode, as the real component operators run: each reconciles when its CR's spec
     * changes or it is told to change; nothing is written on a timer.
     */
    public ComponentSimulator watch() {
        eventDriven = true;
        loop = executor();
        for (SimulatedComponent d : components) {
            watch(d);
            loop.execute(() -> reconcileQuietly(d, false));
        }
        return this;
    }

    /**
     * A real operator's informer lists and watches again when its watch ends with an error (the API
     * server restarted and the resourceVersion is gone), and reconciles what it finds: so does this.
     */
    private void watch(SimulatedComponent d) {
        watches.add(d.resources(client, namespace).withField("metadata.name", d.crName())
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, GenericKubernetesResource resource) {
                        if (action != Action.DELETED && d.crName().equals(resource.getMetadata().getName())) {
                            loop.execute(() -> reconcileQuietly(d, false));
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                        if (cause != null && loop != null && !loop.isShutdown()) {
                            loop.schedule(() -> rewatch(d), RETRY_MIN_MS, TimeUnit.MILLISECONDS);
                        }
                    }
                }));
    }

    private void rewatch(SimulatedComponent d) {
        try {
            watch(d);
            reconcileQuietly(d, false);
        } catch (RuntimeException stillDown) {
            loop.schedule(() -> rewatch(d), RETRY_MAX_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** A failed reconcile is retried as controller-runtime requeues it: exponential backoff, capped. */
    static final long RETRY_MIN_MS = 200;
    static final long RETRY_MAX_MS = 5_000;

    private ScheduledExecutorService executor() {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "component-simulator");
            t.setDaemon(true);
            return t;
        });
    }

    private void changed(String component) {
        if (eventDriven && loop != null && !loop.isShutdown()) {
            loop.execute(() -> reconcileQuietly(descriptor(component), false));
        }
    }

    private void tickQuietly() {
        try {
            tick();
        } catch (KubernetesClientException e) {
            // a conflicting write: the next tick reports again, like a real operator's requeue
            if (e.getCode() != 409) {
                reportFailure("*", e);
            }
        } catch (RuntimeException e) {
            reportFailure("*", e);
        }
    }

    private void reconcileQuietly(SimulatedComponent d, boolean refresh) {
        reconcileQuietly(d, refresh, RETRY_MIN_MS);
    }

    private void reconcileQuietly(SimulatedComponent d, boolean refresh, long backoffMs) {
        try {
            reconcile(d, refresh, NOTHING);
            lastFailure.remove(d.image());
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409 && loop != null && !loop.isShutdown()) {
                // a real operator requeues on a conflict
                loop.schedule(() -> reconcileQuietly(d, refresh), 50, TimeUnit.MILLISECONDS);
            } else {
                reportFailure(d.image(), e);
                requeue(d, refresh, backoffMs);
            }
        } catch (RuntimeException e) {
            // the API server is away: a real operator requeues the failed reconcile; once the test
            // ends (the loop is shut down) nothing runs again
            reportFailure(d.image(), e);
            requeue(d, refresh, backoffMs);
        }
    }

    /** The last failure printed per component: a real controller logs its reconcile errors, but not one line per retry. */
    private final Map<String, String> lastFailure = new ConcurrentHashMap<>();

    private void reportFailure(String who, RuntimeException e) {
        String message = e.getClass().getSimpleName() + ": " + e.getMessage();
        if (!message.equals(lastFailure.put(who, message)) && loop != null && !loop.isShutdown()) {
            System.err.printf("[%s] reconcile failed, retrying: %s%n", who, message);
        }
    }

    private void requeue(SimulatedComponent d, boolean refresh, long backoffMs) {
        if (eventDriven && loop != null && !loop.isShutdown()) {
            long next = Math.min(backoffMs * 2, RETRY_MAX_MS);
            loop.schedule(() -> reconcileQuietly(d, refresh, next), backoffMs, TimeUnit.MILLISECONDS);
        }
    }

    /** One reconcile of every simulated component operator, heartbeats refreshed. */
    public synchronized void tick() {
        components.forEach(d -> reconcile(d, true, NOTHING));
    }

    private static final Runnable NOTHING = () -> {
    };

    /** One reconcile of the simulated operator of {@code component} only (one status write at most). */
    public synchronized void tick(String component) {
        tick(component, NOTHING);
    }

    /** Like {@link #tick(String)}; {@code atWrite} runs right before the status write (the bench's clock starts there). */
    public synchronized void tick(String component, Runnable atWrite) {
        reconcile(descriptor(component), true, atWrite);
    }

    /**
     * One reconcile: look at the spec (or not yet, for a slow follower), compute the status, write
     * it when it differs from what is there.
     */
    private synchronized void reconcile(SimulatedComponent d, boolean refresh, Runnable atWrite) {
        GenericKubernetesResource cr = d.read(client, namespace);
        String name = d.name();
        OperatorState o = state.get(name);
        if (cr == null || o.behaviour == Behaviour.SILENT) {
            return;
        }
        ComponentHabits h = o.habits;
        String spec = specOf(cr);
        if (!spec.equals(o.processedSpec)) {
            if (h.silentAfterSpecChange() && o.processedSpec != null) {
                o.behaviour = Behaviour.SILENT;
                return;
            }
            if (o.pendingSince == null) {
                o.pendingSince = clock.instant();
            }
            Instant due = o.pendingSince.plus(h.observeDelay());
            if (clock.instant().isBefore(due)) {
                if (h.refreshesStaleHeartbeats() && o.processedSpec != null && !spec.equals(o.refreshedFor)) {
                    o.refreshedFor = spec;
                    // cluster-network-addons' habit: the conditions computed before the new spec
                    // was looked at get fresh heartbeats, and are written
                    writeStatus(d, cr, staleRefresh(d, cr), atWrite, false);
                }
                if (loop != null) {
                    loop.schedule(() -> reconcileQuietly(d, false),
                            java.time.Duration.between(clock.instant(), due).toMillis() + 1, TimeUnit.MILLISECONDS);
                }
                return;
            }
            o.pendingSince = null;
            String rendered = renderedOf(d, cr);
            String uid = cr.getMetadata().getUid();
            String before = uid == null ? o.processedRendered : OPERANDS.get(uid);
            o.processedRendered = rendered;
            if (uid != null) {
                OPERANDS.put(uid, rendered);
            }
            if (d.rolloutCondition() != null && before != null && !before.equals(rendered)) {
                o.rollingUntil = clock.instant().plus(ROLLOUT);
            }
            o.processedSpec = spec;
            o.processedGeneration = cr.getMetadata().getGeneration();
        } else if (!Objects.equals(o.processedGeneration, cr.getMetadata().getGeneration())) {
            // the spec went away and came back (A → B → A, e.g. upstream's defaults following the node
            // count as nodes join one by one): the real operators still observe the new generation
            o.processedGeneration = cr.getMetadata().getGeneration();
        }
        Instant rollsUntil = o.rollingUntil;
        boolean rolling = rollsUntil != null && clock.instant().isBefore(rollsUntil);
        if (!rolling) {
            o.rollingUntil = null;
        } else if (loop != null) {
            loop.schedule(() -> reconcileQuietly(d, false),
                    java.time.Duration.between(clock.instant(), rollsUntil).toMillis() + 1, TimeUnit.MILLISECONDS);
        }
        Object status = status(d, cr, rolling);
        if ((!refresh || d.heartbeatField() == null)
                && sameButHeartbeats(d, status, cr.getAdditionalProperties().get("status"))) {
            return;
        }
        writeStatus(d, cr, status, atWrite, !rolling);
    }

    /** The real operators compare what they computed with what is there, heartbeats aside, and write only a difference. */
    private static boolean sameButHeartbeats(SimulatedComponent d, Object computed, Object there) {
        return StatusJson.same(withoutHeartbeats(d, computed), withoutHeartbeats(d, there));
    }

    private static Object withoutHeartbeats(SimulatedComponent d, Object status) {
        Object copy = StatusJson.normalize(status);
        if (d.heartbeatField() != null && copy instanceof Map<?, ?> s && s.get("conditions") instanceof List<?> conditions) {
            conditions.forEach(c -> {
                if (c instanceof Map<?, ?> m) {
                    m.remove(d.heartbeatField());
                }
            });
        }
        return copy;
    }

    private void writeStatus(SimulatedComponent d, GenericKubernetesResource cr, Object status, Runnable atWrite,
            boolean reflectsSpec) {
        String name = d.name();
        cr.getAdditionalProperties().put("status", status);
        var all = d.resources(client, namespace);
        atWrite.run();
        GenericKubernetesResource after = switch (d.statusWrite()) {
            case UPDATE_STATUS -> all.resource(cr).updateStatus();
            // no status subresource (CDI): a whole-object update, carrying the resourceVersion read
            case UPDATE_OBJECT -> all.resource(cr).update();
            // cluster-network-addons-operator may only patch: a JSON patch (RFC 6902) that sets the whole
            // status, like its merge patch carrying no resourceVersion. Not a merge patch because the
            // fabric8 mock server applies those as Jackson updates (lists appended, nulls kept), not RFC 7386
            // on the CR read (fabric8 GETs the object before a patch by name: a verb CNAO lacks)
            case PATCH_STATUS -> all.resource(cr).subresource("status").patch(
                    io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON),
                    StatusJson.replaceStatusPatch(status));
        };
        statusWrites++;
        OperatorState o = state.get(name);
        o.reported(reflectsSpec && o.behaviour == Behaviour.HEALTHY ? o.processedRendered : null);
        o.wrote(Long.parseLong(after.getMetadata().getResourceVersion()));
    }

    /** The status there, with every heartbeat moved to now: computed before the new spec was looked at. */
    @SuppressWarnings("unchecked")
    private Object staleRefresh(SimulatedComponent d, GenericKubernetesResource cr) {
        Object status = StatusJson.normalize(cr.getAdditionalProperties().get("status"));
        if (status instanceof Map<?, ?> s && s.get("conditions") instanceof List<?> conditions) {
            String now = componentNow(d);
            for (Object c : conditions) {
                if (c instanceof Map<?, ?> m) {
                    ((Map<String, Object>) m).put(d.heartbeatField() == null ? "lastHeartbeatTime" : d.heartbeatField(), now);
                }
            }
        }
        return status;
    }

    private Object status(SimulatedComponent d, GenericKubernetesResource cr, boolean rolling) {
        OperatorState o = state.get(d.name());
        Behaviour b = o.behaviour;
        if (b == Behaviour.GARBAGE) {
            return Map.of("conditions", "all good, trust me", "observedGeneration", "seven");
        }
        String version = o.runningVersion;
        String previous = o.reportedVersion == null ? version : o.reportedVersion;
        boolean progressing = b == Behaviour.PROGRESSING;
        String now = componentNow(d);
        Map<String, Map<String, Object>> before = conditionsOf(cr);
        List<Map<String, Object>> conditions = new ArrayList<>();
        // while its operands roll, cluster-network-addons says Progressing (and Available False,
        // "Startup"), CDI's SDK finds a Deployment not ready and says Degraded
        boolean rollsProgressing = rolling && "Progressing".equals(d.rolloutCondition());
        boolean rollsDegraded = rolling && "Degraded".equals(d.rolloutCondition());
        conditions.add(condition(d, before, "Available", rollsProgressing ? "False" : "True",
                rollsProgressing ? "Startup" : "AsExpected", now));
        conditions.add(condition(d, before, "Progressing", progressing || rollsProgressing ? "True" : "False",
                progressing ? "Upgrading" : rollsProgressing ? "Deploying" : "AsExpected", now));
        conditions.add(condition(d, before, "Degraded", b == Behaviour.DEGRADED || rollsDegraded ? "True" : "False",
                b == Behaviour.DEGRADED ? "PodsCrashLooping" : rollsDegraded ? "DeploymentNotReady" : "AsExpected", now));
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("conditions", conditions);
        status.put(d.observedVersionField(), progressing ? previous : version);
        if (d.targetVersionField() != null) {
            status.put(d.targetVersionField(), version);
        }
        status.put("operatorVersion", version);
        if (d.reportsObservedGeneration()) {
            status.put("observedGeneration", state.get(d.name()).processedGeneration);
        }
        if (d.pausedField() != null) {
            status.put(d.pausedField(), false);
        }
        return status;
    }

    /**
     * A condition as the real operators set it: the transition time moves only when its status
     * does; heartbeat components stamp every write with a heartbeat, KubeVirt probes on transitions.
     */
    private static Map<String, Object> condition(SimulatedComponent d, Map<String, Map<String, Object>> before,
            String type, String status, String reason, String now) {
        Map<String, Object> previous = before.get(type);
        boolean same = previous != null && status.equals(previous.get("status"));
        String transition = same && previous.get("lastTransitionTime") instanceof String t ? t : now;
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("type", type);
        c.put("status", status);
        c.put("reason", reason);
        c.put("message", type + " is " + status);
        c.put("lastTransitionTime", transition);
        if (d.heartbeatField() != null) {
            c.put(d.heartbeatField(), d.reportsObservedGeneration() ? transition : now);
        }
        return c;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> conditionsOf(GenericKubernetesResource cr) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        if (cr.getAdditionalProperties().get("status") instanceof Map<?, ?> s
                && s.get("conditions") instanceof List<?> list) {
            for (Object c : list) {
                if (c instanceof Map<?, ?> m && m.get("type") instanceof String type) {
                    out.put(type, (Map<String, Object>) m);
                }
            }
        }
        return out;
    }

    /** metav1.Time: whole seconds, from the component's own clock. */
    private String componentNow(SimulatedComponent d) {
        return clock.instant().plus(state.get(d.name()).habits.clockOffset()).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static String specOf(GenericKubernetesResource cr) {
        return StatusJson.fingerprint(cr.getAdditionalProperties().get("spec"));
    }

    /** What the operator renders of its CR's spec (all of it unless its descriptor names the parts). */
    @SuppressWarnings("unchecked")
    private static String renderedOf(SimulatedComponent d, GenericKubernetesResource cr) {
        Object spec = StatusJson.normalize(cr.getAdditionalProperties().get("spec"));
        if (d.renderedPaths() == null || !(spec instanceof Map<?, ?>)) {
            return StatusJson.fingerprint(spec);
        }
        Map<String, Object> rendered = new LinkedHashMap<>();
        for (String path : d.renderedPaths()) {
            Object value = spec;
            for (String key : path.split("\\.")) {
                value = value instanceof Map<?, ?> m ? m.get(key) : null;
            }
            rendered.put(path, value);
        }
        return StatusJson.fingerprint(rendered);
    }

    private static SimulatedComponent descriptor(String component) {
        return SimulatedComponent.named(component);
    }

    @Override
    public void close() {
        watches.forEach(Watch::close);
        if (loop != null) {
            loop.shutdownNow();
        }
    }
}
