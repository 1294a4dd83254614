package io.kubevirt.hco.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;


import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.e2e.AuditLog;
import io.kubevirt.hco.e2e.BenchSupport;
import io.kubevirt.hco.e2e.ClusterPopulation;
import io.kubevirt.hco.e2e.GateWatch;
import io.kubevirt.hco.e2e.OperatorLaunch;
import io.kubevirt.hco.e2e.OperatorProcess;
import io.kubevirt.hco.e2e.RealApiServer;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentSimulator;
import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;

/**
 * The {@code bench} command: how fast and how cheaply the gate follows reality, on the real
 * kube-apiserver of the e2e harness, every latency reported next to the apiserver's own round trip
 * measured in the same run (timings on a shared 2-core machine are noisy; ratios travel better).
 * Writes {@code bench/results.json} and {@code bench/results.md}. Not a pass/fail test.
 */
public final class BenchMain {

    static final String NS = "kubevirt-hyperconverged";
    static final String VERSION = "1.0.0";
    static final Duration WINDOW = Duration.ofSeconds(1);
    static final ComponentDescriptor FLIPPED = ComponentCatalog.ALL.get(0); // KubeVirt
    static final int FLIPS = Integer.getInteger("bench.flips", 200);
    static final int WARM_UP_FLIPS = 20;
    static final int CHURN_SECONDS = Integer.getInteger("bench.churn-seconds", 600);
    static final int STARTS = Integer.getInteger("bench.starts", 5);
    /** Which parts to run (comma-separated), e.g. -Dbench.parts=baseline,startup to iterate on one. */
    static final List<String> PARTS = List.of(System.getProperty("bench.parts",
            "baseline,startup,reaction,writes,scale,churn,core").split(","));
    /** A native executable to measure beside the JVM (start-up and churn), e.g. -Dbench.native=operator/target/hco-operator. */
    static final Optional<Path> NATIVE = Optional.ofNullable(System.getProperty("bench.native"))
            .filter(p -> !p.isBlank()).map(Path::of);
    static final Pattern HEAP = Pattern.compile("(?m)^jvm_memory_used_bytes\\{[^}]*area=\"heap\"[^}]*\\} (\\S+)$");

    private final Map<String, Object> results = new LinkedHashMap<>();
    private final List<String[]> table = new ArrayList<>();
    private final List<String> missed = new ArrayList<>();
    private final Path jar;
    private final Path out;
    private RealApiServer api;
    private KubernetesClient admin;
    private Cluster cluster;
    private ComponentSimulator simulator;
    private GateWatch gate;
    private OperatorProcess operator;
    private Path operatorKubeconfig;
    private double baselineP50;
    private double baselineP99;
    /** The API server's own round trip on the gate's path (PathBaseline); null before it ran. */
    private Stats pathBaseline;

    BenchMain(Path jar, Path out) {
        this.jar = jar;
        this.out = out;
    }

    public static void main(String[] args) {
        Path jar = Path.of(args.length > 0 ? args[0] : "target/quarkus-app/quarkus-run.jar");
        Path out = Path.of(args.length > 1 ? args[1] : "../bench");
        int exit = 1;
        try {
            if (!Files.exists(jar)) {
                throw new IllegalStateException(jar + " not found: build it first (mvn package)");
            }
            new BenchMain(jar, out).run();
            exit = 0;
        } catch (Exception e) {
            e.printStackTrace();
        }
        // the clients' threads would keep the JVM alive after a failure
        System.exit(exit);
    }

    void run() throws Exception {
        results.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(), "java",
                System.getProperty("java.version"), "date", Instant.now().toString()));
        results.put("settings", Map.of("flips", FLIPS, "churnSeconds", CHURN_SECONDS, "stabilizationWindowMs",
                WINDOW.toMillis(), "starts", STARTS));
        try (RealApiServer cluster = new RealApiServer().start()) {
            api = cluster;
            admin = api.admin();
            baseline();
            if (PARTS.contains("startup")) {
                startup();
            }
            if (PARTS.stream().anyMatch(p -> List.of("reaction", "writes", "scale", "churn", "churn-native", "size").contains(p))) {
                install();
            }
            if (PARTS.contains("reaction")) {
                pathBaseline();
                reaction("gate reaction", FLIPS);
            }
            if (PARTS.contains("writes")) {
                writes();
            }
            if (PARTS.contains("scale")) {
                scale();
            }
            if (PARTS.contains("size")) {
                clusterSize();
            }
            if (PARTS.contains("churn")) {
                churn("JVM");
            }
            // churn-native: the native executable's churn alone (heap settings are tried on it)
            if (PARTS.contains("churn") || PARTS.contains("churn-native")) {
                if (NATIVE.isPresent()) {
                    replaceOperator(OperatorLaunch.nativeExecutable(NATIVE.get(), OperatorLaunch.NATIVE_FLAGS));
                    churn("native");
                }
            }
        } finally {
            if (simulator != null) {
                simulator.close();
            }
            if (gate != null) {
                gate.close();
            }
            if (operator != null) {
                operator.close();
            }
        }
        if (PARTS.contains("core")) {
            Map<String, Double> core = CoreBenchmark.run();
            results.put("core", core);
            core.forEach((n, us) -> row("core: gate decision, " + n + " components", fmt(us) + " µs/op", "–",
                    "JMH, 1 fork, 5 × 1 s"));
        }
        results.put("missedFlips", missed);
        if (!missed.isEmpty()) {
            row("flips not seen within 30 s (retried)", Integer.toString(missed.size()), "–", "see missedFlips in results.json");
        }
        write();
    }

    // ---- 1. the apiserver's own round trip ----

    /** Write a CR status → a watcher gets the event and writes another CR's status → a watcher gets that. */
    void baseline() throws Exception {
        BenchSupport.installCrds(admin);
        List<Double> samples = BenchSupport.relayRoundTrips(api, FLIPS);
        Stats s = Stats.of(samples);
        baselineP50 = s.p50;
        baselineP99 = s.p99;
        results.put("baseline", s.json("write → watch → write → watch, bare fabric8 client, ms"));
        row("baseline: apiserver round trip (2 writes + 2 watch deliveries)", s.text(), "1.0 / 1.0", samples.size() + " samples");
    }

    /**
     * The same round trip on the objects the gate's path is made of: the stack's flipped CR (as the
     * operator rendered it and the simulated operator reported on it) and an OperatorCondition.
     */
    void pathBaseline() throws Exception {
        GenericKubernetesResource flipped = ComponentResources.of(admin, FLIPPED, NS).withName(FLIPPED.crName()).get();
        PathBaseline.Result r = PathBaseline.run(api, FLIPPED, flipped, FLIPS, "bench-path");
        pathBaseline = Stats.of(r.samples());
        results.put("pathBaseline", pathBaseline.json("the flipped " + FLIPPED.kind() + " CR's status PUT → watch → "
                + "OperatorCondition JSON patch → watch, bare fabric8 clients, ms"));
        results.put("pathBaselineObjectBytes", r.objectBytes());
        row("baseline on the gate's path (" + FLIPPED.kind() + " status PUT + OperatorCondition patch, 2 watch deliveries)",
                pathBaseline.text(), ratio(pathBaseline), r.samples().size() + " samples; the " + FLIPPED.kind() + " CR is "
                        + fmt(r.objectBytes() / 1024.0) + " KiB with " + r.managedFieldEntries() + " managedFields entries");
    }

    // ---- 3. start-up ----

    void startup() throws Exception {
        Path archive = api.dir().resolve("app-cds.jsa");
        double trained = BenchSupport.trainAppCds(jar, archive);
        Map<String, OperatorLaunch> modes = new LinkedHashMap<>();
        modes.put("JVM", OperatorLaunch.jvm(OperatorLaunch.JVM_FLAGS));
        // -Xshare:on: a start that could not map the archive fails instead of quietly measuring without it
        modes.put("JVM + AppCDS", OperatorLaunch.jvm(OperatorLaunch.JVM_FLAGS + " -XX:SharedArchiveFile=" + archive
                + " -Xshare:on"));
        NATIVE.ifPresent(executable -> modes.put("native", OperatorLaunch.nativeExecutable(executable,
                OperatorLaunch.NATIVE_FLAGS)));
        // the images the build made, run from their root filesystems as a container (ContainerRun)
        OperatorLaunch.builtImages().forEach((kind, launch) -> {
            modes.put(kind + " image", launch);
            results.put("image." + kind + ".compressedBytes", launch.imageCompressedBytes());
            row("image size, compressed (" + kind + ")", fmt(launch.imageCompressedBytes() / 1e6) + " MB", "–",
                    "what a registry transfers: gzip'd layers + config + manifest"
                            + (kind.equals("native") ? "; target ≤ 40 MB" : ""));
        });
        Map<String, List<BenchSupport.Startup>> samples = new LinkedHashMap<>();
        // the modes take turns, so that the machine's drift over the minutes weighs on both alike
        for (int i = 0; i < STARTS; i++) {
            for (var mode : modes.entrySet()) {
                samples.computeIfAbsent(mode.getKey(), m -> new ArrayList<>()).add(BenchSupport.startToHeld(api,
                        "bench-start-" + key(mode.getKey()).toLowerCase() + "-" + i, mode.getValue()));
            }
        }
        for (var mode : modes.entrySet()) {
            List<BenchSupport.Startup> runs = samples.get(mode.getKey());
            Stats r = Stats.of(runs.stream().map(BenchSupport.Startup::readyMs).toList());
            Stats h = Stats.of(runs.stream().map(BenchSupport.Startup::heldMs).toList());
            results.put("startup." + key(mode.getKey()), Map.of(
                    "ready", r.json("process start → readiness UP (Upgradeable=False/Initializing written first), ms"),
                    "held", h.json("process start → Upgradeable=False/Initializing seen by a watcher, ms"),
                    "flags", mode.getValue().flags()));
            String note = mode.getKey().contains("AppCDS")
                    ? "; archive trained in " + fmt(trained / 1000) + " s by packaging/jvm/train-appcds.sh, as the image does"
                    : "";
            row("start-up to readiness UP (" + mode.getKey() + ")", r.text(), "–",
                    STARTS + " starts; target ≤ 2000 ms" + note);
            row("start-up to Initializing written (" + mode.getKey() + ")", h.text(), "–", "the gate is held from here on");
        }
    }

    // ---- 2. gate reaction ----

    void install() throws Exception {
        String token = BenchSupport.installOperator(admin, NS);
        cluster = new Cluster(admin, NS);
        cluster.createOperatorCondition(OperatorProcess.operatorConditionName(VERSION));
        operatorKubeconfig = api.kubeconfig("hco-operator", token, NS);
        operator = OperatorProcess.start("bench-operator", operatorKubeconfig, NS, VERSION,
                operatorEnv(), api.dir(), OperatorLaunch.jvm(OperatorLaunch.JVM_FLAGS));
        gate = new GateWatch(admin, NS, OperatorProcess.operatorConditionName(VERSION));
        cluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
        simulator = new ComponentSimulator(admin, NS, VERSION);
        simulator.start(200);
        gate.awaitStatus("True", Duration.ofMinutes(3));
        // from here on the simulated operators write only when the bench tells them to
        simulator.close();
    }

    /**
     * The e2e suite's operator environment with the bench's window, but production's idle poll and
     * lease timings (unset: the chart's defaults) instead of the suite's short ones: an idle
     * operator spends its CPU on them.
     */
    static Map<String, String> operatorEnv() {
        Map<String, String> env = new HashMap<>();
        env.put("HCO_STABILIZATION_WINDOW", WINDOW.toMillis() + "ms");
        for (String shortened : List.of("HCO_IDLE_POLL_INTERVAL", "HCO_LEASE_DURATION", "HCO_LEASE_RENEW_DEADLINE",
                "HCO_LEASE_RETRY_PERIOD")) {
            env.put(shortened, null);
        }
        return env;
    }

    void reaction(String label, int flips) throws Exception {
        List<Double> closing = new ArrayList<>();
        List<Double> opening = new ArrayList<>();
        Map<String, double[]> phasesBefore = null;
        double eventClosingsBefore = 0;
        // 20 flips of warm-up each way, not counted, as the baseline's 20 warm-up rounds
        for (int i = 0; i < flips + WARM_UP_FLIPS; i++) {
            if (i == WARM_UP_FLIPS) {
                phasesBefore = phases();
                eventClosingsBefore = eventClosings();
            }
            double closes = flip(Behaviour.DEGRADED, "False", 0);
            double opens = flip(Behaviour.HEALTHY, "True", WINDOW.toMillis());
            if (i >= WARM_UP_FLIPS) {
                closing.add(closes);
                opening.add(opens);
            }
        }
        if (label.equals("gate reaction") && phasesBefore != null) {
            phaseRows(phasesBefore, phases());
            long fromEvent = Math.round(eventClosings() - eventClosingsBefore);
            results.put("closedFromEvent", Map.of("closings", fromEvent, "degrades", flips));
            row("degrades closed from the component's watch event", fromEvent + " of " + flips, "–",
                    "kubevirt_hco_gate_closed_from_event_total; the others were closed by the pass the event woke");
        }
        Stats c = Stats.of(closing);
        Stats o = Stats.of(opening);
        results.put(key(label) + ".closes", c.json("component degraded → Upgradeable=False seen by a watcher, ms"));
        results.put(key(label) + ".opens", o.json("last component converged → Upgradeable=True seen, minus the window, ms"));
        row(label + ": degrade → Upgradeable=False", c.text(), ratio(c), flips + " flips");
        row(label + ": converge → Upgradeable=True (− window)", o.text(), ratio(o), flips + " flips");
        if (label.equals("gate reaction") && pathBaseline != null) {
            pathRatioRow(label + ": degrade", c);
            pathRatioRow(label + ": converge (− window)", o);
        }
    }

    void pathRatioRow(String what, Stats s) {
        row(what + ", over the gate's path baseline", fmt(s.p50 / pathBaseline.p50) + " / " + fmt(s.p99 / pathBaseline.p99),
                "–", "what the operator adds to the API server's own work on the same objects");
    }

    static final Pattern PHASE = Pattern.compile(
            "kubevirt_hco_reconcile_phase_seconds_(sum|count)\\{[^}]*phase=\"([^\"]+)\"[^}]*\\} ([0-9.eE+-]+)");

    static final Pattern EVENT_CLOSINGS = Pattern.compile("(?m)^kubevirt_hco_gate_closed_from_event_total(?:\\{[^}]*\\})? ([0-9.eE+-]+)$");

    /** Closings published from a component's watch event so far (0 before the first: the counter is made then). */
    double eventClosings() {
        Matcher m = EVENT_CLOSINGS.matcher(operator.metrics());
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /** Per reconcile phase: seconds spent so far, and how many times (the operator's own timers). */
    Map<String, double[]> phases() {
        Map<String, double[]> phases = new java.util.TreeMap<>();
        Matcher m = PHASE.matcher(operator.metrics());
        while (m.find()) {
            phases.computeIfAbsent(m.group(2), p -> new double[2])[m.group(1).equals("sum") ? 0 : 1] =
                    Double.parseDouble(m.group(3));
        }
        return phases;
    }

    /** Where a pass's time went during the counted flips: mean ms per phase, and how often it ran. */
    void phaseRows(Map<String, double[]> before, Map<String, double[]> after) {
        Map<String, Object> json = new LinkedHashMap<>();
        after.forEach((phase, a) -> {
            double[] b = before.getOrDefault(phase, new double[2]);
            double count = a[1] - b[1];
            if (count > 0) {
                double meanMs = (a[0] - b[0]) / count * 1000;
                json.put(phase, Map.of("meanMs", meanMs, "count", count));
                row("reconcile phase: " + phase, fmt(meanMs) + " ms mean", "–", (long) count
                        + " times in the counted flips (kubevirt_hco_reconcile_phase; decide includes confirm, window-end and operator-condition)");
            }
        });
        results.put("reconcilePhases", json);
    }

    /**
     * One change of the flipped component's status; ms until the gate shows {@code expect}, less
     * {@code minus}. A flip not seen within 30 s is recorded with what the cluster then showed (a
     * missed watch event and an operator that did not react are different findings) and retried.
     */
    double flip(Behaviour b, String expect, long minus) throws Exception {
        for (int attempt = 1;; attempt++) {
            gate.drain();
            long[] start = new long[1];
            simulator.behave(FLIPPED.name(), b);
            // the clock starts at the status write, as the baseline's does (not at the simulator's read before it)
            simulator.tick(FLIPPED.name(), () -> start[0] = System.nanoTime());
            try {
                long seen = gate.awaitStatus(expect, Duration.ofSeconds(30));
                awaitReconcileDone(expect);
                return (seen - start[0]) / 1e6 - minus;
            } catch (IllegalStateException notSeen) {
                Map<String, Object> live = cluster.upgradeable(OperatorProcess.operatorConditionName(VERSION));
                missed.add("Upgradeable=" + expect + " not seen within 30 s after " + b + "; the OperatorCondition said "
                        + live + "; operator alive: " + operator.alive());
                System.out.println("[bench] missed: " + missed.get(missed.size() - 1));
                if (attempt == 3) {
                    throw notSeen;
                }
            }
        }
    }

    /**
     * Until the HyperConverged status shows the decision too: it is the pass's last write (after the
     * OperatorCondition and the Event), so the next flip finds the operator idle instead of being
     * queued behind the end of this one. Not part of any figure.
     */
    void awaitReconcileDone(String expect) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            HyperConverged hco = admin.resources(HyperConverged.class).inNamespace(NS)
                    .withName(HyperConverged.SINGLETON_NAME).get();
            if (hco != null && hco.getStatus() != null && hco.getStatus().conditions.stream()
                    .anyMatch(c -> "Upgradeable".equals(c.type) && expect.equals(c.status))) {
                return;
            }
            Thread.sleep(5);
        }
        throw new IllegalStateException("the HyperConverged status did not show Upgradeable=" + expect + " within 30 s");
    }

    // ---- 4. writes ----

    void writes() throws Exception {
        // steady state: every component operator reports again (new heartbeats, same facts) → reconciles, no writes;
        // first let the last change's writes land (the HyperConverged status follows the OperatorCondition)
        awaitQuiet();
        Instant from = Instant.now();
        long reconcilesBefore = reconciles();
        for (int i = 0; i < 50; i++) {
            simulator.tick();
            Thread.sleep(100); // pacing of the component operators' reports, not a wait for a result
        }
        awaitReconcilesSettled();
        long noOpReconciles = reconciles() - reconcilesBefore;
        List<AuditLog.Write> noOp = operatorWrites(from);
        long noOpWrites = noOp.size();
        results.put("writes.noOp", Map.of("reconciles", noOpReconciles, "writes", noOpWrites, "which",
                noOp.stream().map(AuditLog.Write::what).toList()));
        row("writes per no-op reconcile", noOpReconciles == 0 ? "n/a" : fmt((double) noOpWrites / noOpReconciles),
                "–", noOpWrites + " writes in " + noOpReconciles + " reconciles; expected 0");

        // a real change: one flip each way changes the OperatorCondition (and the HyperConverged status)
        from = Instant.now();
        flip(Behaviour.DEGRADED, "False", 0);
        flip(Behaviour.HEALTHY, "True", 0);
        awaitQuiet();
        List<AuditLog.Write> writes = operatorWrites(from);
        Map<String, Long> perObject = new LinkedHashMap<>();
        // a refused write (409) counts too, and says so
        writes.forEach(w -> perObject.merge(w.what() + (w.code() >= 300 ? " → " + w.code() : ""), 1L, Long::sum));
        results.put("writes.perChange", Map.of("changes", "KubeVirt degraded, then healthy again", "writes", perObject));
        row("writes for degrade + recover", Long.toString(writes.size()), "–", perObject.toString());
    }

    /** Until the reconcile counter has not moved for a second. */
    void awaitReconcilesSettled() throws Exception {
        long last = reconciles();
        Instant stableSince = Instant.now();
        Instant deadline = Instant.now().plusSeconds(30);
        while (Instant.now().isBefore(deadline)) {
            Thread.sleep(200);
            long now = reconciles();
            if (now != last) {
                last = now;
                stableSince = Instant.now();
            } else if (Duration.between(stableSince, Instant.now()).toMillis() >= 1000) {
                return;
            }
        }
        throw new IllegalStateException("the operator keeps reconciling: " + last);
    }

    /** Until the operator has written nothing for a second (read from the audit log). */
    void awaitQuiet() throws Exception {
        Instant deadline = Instant.now().plusSeconds(30);
        while (Instant.now().isBefore(deadline)) {
            List<AuditLog.Write> recent = operatorWrites(Instant.now().minusSeconds(1));
            if (recent.isEmpty()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the operator keeps writing: " + operatorWrites(Instant.now().minusSeconds(1)));
    }

    List<AuditLog.Write> operatorWrites(Instant after) throws IOException {
        return AuditLog.by(api.auditLog(), "hco-operator", after).stream()
                .filter(AuditLog.Write::changesState).filter(w -> !"leases".equals(w.resource())).toList();
    }

    long reconciles() {
        return OperatorProcess.reconcilesStarted(operator.metrics());
    }

    // ---- 7. scale: unrelated objects of the watched kinds changing ----

    void scale() throws Exception {
        for (int rate : new int[] { 1, 10, 100 }) {
            try (var noise = BenchSupport.noise(admin, NS, rate)) {
                long before = reconciles();
                Instant from = Instant.now();
                reaction("scale " + rate + "/s unrelated", Math.max(20, FLIPS / 10));
                double seconds = Duration.between(from, Instant.now()).toMillis() / 1000.0;
                long reconciles = reconciles() - before;
                results.put("scale." + rate + ".reconcilesPerSecond", reconciles / seconds);
                results.put("scale." + rate + ".noiseWrites", noise.writes());
                row("scale " + rate + "/s unrelated: reconciles/s", fmt(reconciles / seconds), "–",
                        noise.writes() + " unrelated writes in " + fmt(seconds) + " s");
            }
        }
    }

    // ---- 5. memory and CPU under churn ----

    /** The installed stack, now supervised by an operator started as {@code launch}: it takes over and opens the gate. */
    void replaceOperator(OperatorLaunch launch) throws Exception {
        operator.close();
        operator = OperatorProcess.start("bench-operator-" + key(launch.label()).toLowerCase(), operatorKubeconfig, NS,
                VERSION, operatorEnv(), api.dir(), launch);
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (operator.readiness() != 200) {
            if (Instant.now().isAfter(deadline) || !operator.alive()) {
                throw new IllegalStateException(launch.label() + " operator not ready; log:\n" + operator.log());
            }
            Thread.sleep(50);
        }
        gate.awaitStatus("True", Duration.ofMinutes(3));
    }

    /** Its CPU and memory can no longer be read once it is gone: say why it stopped rather than fail on /proc. */
    void requireAlive(String runtime, String when) throws IOException {
        if (!operator.alive()) {
            throw new IllegalStateException("the " + runtime + " operator died in the churn, " + when + ": "
                    + operator.deathReport(60));
        }
    }

    /** Flips (one per second) before the idle minute: a process that has just started is still compiling then. */
    static final int CHURN_WARM_UP_FLIPS = 30;

    void churn(String runtime) throws Exception {
        // a churn part run alone starts on a fresh operator: without this, its JIT's warm-up was
        // measured as idle and subtracted (a run came out at -1.47 s per 1,000 reconciles net)
        boolean degradedWarmUp = false;
        for (int i = 0; i < CHURN_WARM_UP_FLIPS; i++) {
            degradedWarmUp = !degradedWarmUp;
            simulator.behave(FLIPPED.name(), degradedWarmUp ? Behaviour.DEGRADED : Behaviour.HEALTHY);
            simulator.tick(FLIPPED.name());
            Thread.sleep(1000);
        }
        if (degradedWarmUp) {
            simulator.behave(FLIPPED.name(), Behaviour.HEALTHY);
            simulator.tick(FLIPPED.name());
        }
        requireAlive(runtime, "after the warm-up flips");
        // what the process burns doing nothing (lease renewals, idle polls, metrics, GC, JIT): subtracted below
        long idleSeconds = Math.min(60, CHURN_SECONDS);
        double idleFrom = BenchSupport.cpuSeconds(operator.pid());
        long idleReconciles = reconciles();
        Thread.sleep(idleSeconds * 1000);
        requireAlive(runtime, "while idle");
        double idleCpuPerSecond = (BenchSupport.cpuSeconds(operator.pid()) - idleFrom) / idleSeconds;
        idleReconciles = reconciles() - idleReconciles;
        long reconcilesBefore = reconciles();
        double cpuBefore = BenchSupport.cpuSeconds(operator.pid());
        Instant end = Instant.now().plusSeconds(CHURN_SECONDS);
        boolean degraded = false;
        int flips = 0;
        while (Instant.now().isBefore(end)) {
            degraded = !degraded;
            flips++;
            simulator.behave(FLIPPED.name(), degraded ? Behaviour.DEGRADED : Behaviour.HEALTHY);
            simulator.tick(FLIPPED.name());
            Thread.sleep(1000);
            requireAlive(runtime, "after " + flips + " flips");
        }
        long reconciles = reconciles() - reconcilesBefore;
        double cpu = BenchSupport.cpuSeconds(operator.pid()) - cpuBefore;
        double rssMb = BenchSupport.rssKb(operator.pid()) / 1024.0;
        double heapMb = heapUsedMb();
        double net = cpu - idleCpuPerSecond * CHURN_SECONDS;
        results.put(runtime.equals("JVM") ? "churn" : "churn." + key(runtime), Map.of("seconds", CHURN_SECONDS, "reconciles", reconciles, "cpuSeconds", cpu,
                "idleCpuSecondsPerSecond", idleCpuPerSecond, "idleReconciles", idleReconciles,
                "cpuSecondsPer1000Reconciles", reconciles == 0 ? 0 : cpu * 1000 / reconciles,
                "netCpuSecondsPer1000Reconciles", reconciles == 0 ? 0 : net * 1000 / reconciles, "rssMb", rssMb,
                "heapUsedMb", heapMb, "netCpuSecondsPer1000Flips", net * 1000 / flips));
        // RSS depends on the flags (heap and young generation sizes) more than on anything else
        String flags = runtime.equals("JVM") ? OperatorLaunch.JVM_FLAGS : OperatorLaunch.NATIVE_FLAGS;
        row("after " + CHURN_SECONDS + " s of churn (a flip per second, " + runtime + "): RSS / heap", fmt(rssMb) + " MB / "
                + fmt(heapMb) + " MB", "–", reconciles + " reconciles; flags " + flags);
        // per status change too: a change costs a varying number of passes (the window's recheck, a
        // write retry), so a design with fewer passes looks worse per reconcile for the same work
        row("CPU per 1,000 component status changes (net of idle, " + runtime + ")", fmt(net * 1000 / flips) + " s",
                "–", flips + " changes, one per second");
        row("CPU per 1,000 reconciles (all / net of idle, " + runtime + ")", fmt(reconciles == 0 ? 0 : cpu * 1000 / reconciles) + " s / "
                + fmt(reconciles == 0 ? 0 : net * 1000 / reconciles) + " s", "–", fmt(cpu) + " CPU s in total; idle "
                + fmt(idleCpuPerSecond * 1000) + " ms CPU per s (" + idleReconciles + " reconciles in " + idleSeconds
                + " s idle)");
    }

    // ---- 8. cluster size: the same operator in an empty cluster and in a big one ----

    static final int NODES = Integer.getInteger("bench.size-nodes", 5000);
    static final int PODS = Integer.getInteger("bench.size-pods", 50000);

    /** Reaction, CPU and memory of the operator, first in this empty cluster, then with many Nodes and Pods. */
    void clusterSize() throws Exception {
        Map<String, Double> empty = sizeFigures("size: empty cluster");
        empty.put("apiserver round trip p50 ms", Stats.of(BenchSupport.relayRoundTrips(api, 50, "bench-size-empty")).p50);
        long nodesMs = ClusterPopulation.nodes(admin, NODES);
        long podsMs = ClusterPopulation.pods(admin, PODS, 50);
        System.out.printf("[bench] created %d Nodes in %d ms and %d Pods in %d ms%n", NODES, nodesMs, PODS, podsMs);
        // the node count moves upstream's defaults (KubeVirt's and CDI's specs change with it): the
        // components look at their new specs before the gate is measured again
        Instant settleBy = Instant.now().plus(Duration.ofMinutes(3));
        while (!"True".equals(String.valueOf(cluster.upgradeable(OperatorProcess.operatorConditionName(VERSION))
                .get("status")))) {
            if (Instant.now().isAfter(settleBy)) {
                throw new IllegalStateException("the gate did not open again within 3 min after the cluster grew: "
                        + cluster.upgradeable(OperatorProcess.operatorConditionName(VERSION)));
            }
            simulator.tick();
            Thread.sleep(500);
        }
        Map<String, Double> big = sizeFigures("size: " + NODES + " Nodes + " + PODS + " Pods");
        // the API server's own round trip in each cluster: what of a slowdown is the API server's
        big.put("apiserver round trip p50 ms", Stats.of(BenchSupport.relayRoundTrips(api, 50, "bench-size-big")).p50);
        results.put("size", Map.of("nodes", NODES, "pods", PODS, "empty", empty, "big", big));
        for (String figure : empty.keySet()) {
            row("size: " + figure + ", " + NODES + " Nodes + " + PODS + " Pods vs empty", fmt(big.get(figure)) + " vs "
                    + fmt(empty.get(figure)), fmt(big.get(figure) / empty.get(figure)) + "× empty",
                    "target within 10 % of the empty cluster (JVM operator)");
        }
    }

    /**
     * Counted flips per cluster size: 20 gave about 60 reconciles, where a CPU second more or less
     * (the JIT still compiling on the empty side, measured first) moved the ratio by a third.
     */
    static final int SIZE_FLIPS = Integer.getInteger("bench.size-flips", 50);

    /** Counted flips: reaction p50s, CPU per 1,000 reconciles, then RSS and heap used after a GC. */
    Map<String, Double> sizeFigures(String label) throws Exception {
        for (int i = 0; i < CHURN_WARM_UP_FLIPS; i++) {
            flip(Behaviour.DEGRADED, "False", 0);
            flip(Behaviour.HEALTHY, "True", WINDOW.toMillis());
        }
        long reconcilesBefore = reconciles();
        double cpuBefore = BenchSupport.cpuSeconds(operator.pid());
        List<Double> closing = new ArrayList<>();
        List<Double> opening = new ArrayList<>();
        for (int i = 0; i < SIZE_FLIPS; i++) {
            closing.add(flip(Behaviour.DEGRADED, "False", 0));
            opening.add(flip(Behaviour.HEALTHY, "True", WINDOW.toMillis()));
        }
        long reconciles = reconciles() - reconcilesBefore;
        double cpu = BenchSupport.cpuSeconds(operator.pid()) - cpuBefore;
        // heap after a full collection: what the caches hold, not when the collector last ran
        new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(operator.pid()),
                "GC.run").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        double heapMb = heapUsedMb();
        Map<String, Double> figures = new LinkedHashMap<>();
        figures.put("degrade p50 ms", Stats.of(closing).p50);
        figures.put("converge p50 ms (− window)", Stats.of(opening).p50);
        figures.put("CPU s per 1,000 reconciles", reconciles == 0 ? 0 : cpu * 1000 / reconciles);
        figures.put("RSS MB", BenchSupport.rssKb(operator.pid()) / 1024.0);
        figures.put("heap used after GC MB", heapMb);
        System.out.println("[bench] " + label + ": " + figures);
        return figures;
    }

    /** The operator's heap in use (Micrometer's jvm_memory_used_bytes, heap pools summed), MB. */
    double heapUsedMb() {
        Matcher heap = HEAP.matcher(operator.metrics());
        double mb = 0;
        while (heap.find()) {
            mb += Double.parseDouble(heap.group(1)) / (1024 * 1024);
        }
        return mb;
    }

    // ---- output ----

    String ratio(Stats s) {
        return fmt(s.p50 / baselineP50) + " / " + fmt(s.p99 / baselineP99);
    }

    void row(String what, String value, String ratio, String note) {
        table.add(new String[] { what, value, ratio, note });
        System.out.printf("[bench] %-60s %-22s %-12s %s%n", what, value, ratio, note);
    }

    void write() throws IOException {
        String today = java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString();
        ResultsFile.write(out, results, table, today);
        StringBuilder md = new StringBuilder("| measure | value (p50 / p99 where two) | ratio to baseline (p50 / p99) | notes |\n|---|---|---|---|\n");
        table.forEach(r -> md.append("| ").append(String.join(" | ", r)).append(" |\n"));
        System.out.println("\nthis run:\n" + md);
        System.out.println("[bench] merged into " + out.resolve("results.json") + " and " + out.resolve("results.md")
                + " (each re-measured row keeps the figure it replaced)");
    }

    static String key(String label) {
        return label.replaceAll("[^A-Za-z0-9]+", "-");
    }

    static String fmt(double v) {
        return v >= 100 ? String.format("%.0f", v) : String.format("%.2f", v);
    }

    /** p50/p99 of a sample in ms. */
    record Stats(double p50, double p99, double max, int n) {
        static Stats of(List<Double> samples) {
            List<Double> sorted = samples.stream().sorted().toList();
            return new Stats(at(sorted, 0.50), at(sorted, 0.99), sorted.get(sorted.size() - 1), sorted.size());
        }

        static double at(List<Double> sorted, double q) {
            return sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(q * sorted.size()) - 1));
        }

        Map<String, Object> json(String what) {
            return Map.of("what", what, "p50", p50, "p99", p99, "max", max, "n", n);
        }

        String text() {
            return fmt(p50) + " / " + fmt(p99) + " ms";
        }
    }
}
