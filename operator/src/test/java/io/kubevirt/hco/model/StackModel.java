package io.kubevirt.hco.model;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.kubevirt.hco.core.Assessment;
import io.kubevirt.hco.core.ComponentExpectation;
import io.kubevirt.hco.core.ComponentObservation;
import io.kubevirt.hco.core.Condition;
import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.core.GateEvaluator;
import io.kubevirt.hco.core.GateInput;
import io.kubevirt.hco.core.GateReason;
import io.kubevirt.hco.core.HyperConvergedObservation;
import io.kubevirt.hco.core.ObservationEvidence;
import io.kubevirt.hco.core.Stabilizer;
import io.kubevirt.hco.core.WriteRecord;

/**
 * A model of the whole system in which the real core ({@link GateEvaluator}, {@link Stabilizer})
 * takes every gate decision, and everything around it is modelled: an API server keeping every
 * revision, informer caches that lag behind it by arbitrary amounts (never going backwards), the
 * operator's reconcile shell (component spec writes with optimistic concurrency, the HyperConverged
 * status, the OperatorCondition writes, in-memory state lost on restart), component operators
 * that progress, report, report partially, report late, degrade and go silent in any order, new
 * releases arriving (back to back, skipped), and OLM reading the OperatorCondition as OLM does.
 *
 * <p>Every component status carries the ground truth of the component at the moment it computed
 * that status. The invariant is checked whenever OLM reads Upgradeable=True: the OperatorCondition
 * value it read was written by the running version from a snapshot in which every component's
 * revision was computed by a component that truly ran that version, had processed exactly that
 * revision's spec, was healthy and not upgrading; that spec came from the HyperConverged generation
 * the snapshot saw; no newer spec had been written to the CR; and the version was recorded.
 */
final class StackModel {

    static final String[] COMPONENTS = { "KubeVirt", "CDI", "NetworkAddonsConfig", "SSP" };
    static final ObservationEvidence[] EVIDENCE = { ObservationEvidence.OBSERVED_GENERATION,
            ObservationEvidence.HEARTBEAT_AFTER_SPEC_WRITE, ObservationEvidence.HEARTBEAT_AFTER_SPEC_WRITE,
            ObservationEvidence.OBSERVED_GENERATION };
    static final Duration WINDOW = Duration.ofSeconds(5);
    static final int MAX_RELEASE = 5;
    private static final int N = COMPONENTS.length;
    /** 18 single steps, and 6 codes (a quarter of all steps) for a second of normal life. */
    static final int KINDS = 24;
    static final int CODES = KINDS * N * 4 * 4;
    private static final String[] STEPS = { "edit", "progress #", "report #", "report # partially", "compute #",
            "land #", "degrade #", "recover #", "silence #", "unsilence #", "cache # +k", "cache hco +k", "reconcile",
            "crash after k component writes", "restart", "release", "olm sync", "olm poll", "second of normal life" };

    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private long rv = 1;
    final List<String> trace = new ArrayList<>();
    final List<String> violations = new ArrayList<>();

    // ---- the API server: every revision ----
    private final List<HcoRevision> hco = new ArrayList<>();
    private final List<List<ComponentRevision>> crs = new ArrayList<>();

    // ---- component operators ----
    private final Truth[] truth = new Truth[N];
    private final boolean[] silent = new boolean[N];
    private final ComponentRevision.Report[] inFlight = new ComponentRevision.Report[N];

    // ---- releases and OLM ----
    int installed = 1;
    private int newest = 1;
    private OperatorCondition condition;
    int upgradesByOlm;
    int trueReadsByOlm;

    // ---- the operator process (lost on restart) ----
    private Process process;

    StackModel() {
        hco.add(new HcoRevision(rv++, 1, null, null));
        for (int c = 0; c < N; c++) {
            crs.add(new ArrayList<>());
            truth[c] = new Truth(null, 0, true, false);
        }
        startProcess();
    }

    String version() {
        return "v" + installed;
    }

    // ================= actions =================

    /** Decodes and applies one generated step. */
    void step(int raw) {
        int v = Math.abs(raw);
        int kind = v % KINDS;
        int c = (v / KINDS) % N;
        int k = (v / (KINDS * N)) % 4 + 1;
        now = now.plusMillis(((v / (KINDS * N * 4)) % 4) * 700L);
        trace.add(STEPS[Math.min(kind, STEPS.length - 1)].replace("#", COMPONENTS[c]).replace("k", Integer.toString(k)));
        switch (kind) {
            case 0 -> editSpec();
            case 1 -> progress(c);
            case 2 -> { compute(c, false); land(c); }
            case 3 -> { compute(c, true); land(c); }
            case 4 -> compute(c, k % 2 == 0);
            case 5 -> land(c);
            case 6 -> setHealthy(c, false);
            case 7 -> setHealthy(c, true);
            case 8 -> setSilent(c, true);
            case 9 -> setSilent(c, false);
            case 10 -> process.advanceComponentCache(c, k);
            case 11 -> process.advanceHcoCache(k);
            case 12 -> reconcile();
            case 13 -> crashDuringReconcile(k);
            case 14 -> restart();
            case 15 -> release();
            case 16 -> condition.olmCopiesSpecToStatus();
            case 17 -> olmPolls(k % 2 == 0);
            default -> everyoneDoesTheirJob(k % 2 == 0);
        }
    }

    /**
     * A second of normal life, so that schedules reach converged and open states often and the
     * other steps race against them: components work and report, caches catch up, the operator
     * reconciles, OLM syncs and polls.
     */
    void everyoneDoesTheirJob(boolean skipToNewest) {
        now = now.plusSeconds(1);
        for (int c = 0; c < N; c++) {
            progress(c);
            compute(c, false);
            land(c);
            process.advanceComponentCache(c, Integer.MAX_VALUE);
        }
        process.advanceHcoCache(Integer.MAX_VALUE);
        reconcile();
        condition.olmCopiesSpecToStatus();
        olmPolls(skipToNewest);
    }

    void editSpec() {
        HcoRevision last = last(hco);
        hco.add(new HcoRevision(rv++, last.generation() + 1, last.observedGeneration(), last.recordedVersion()));
    }

    /** The component operator works: starts or finishes its upgrade to the installed version, or processes its spec. */
    void progress(int c) {
        if (silent[c]) {
            return;
        }
        Truth t = truth[c];
        long latestGeneration = crs.get(c).isEmpty() ? 0 : last(crs.get(c)).generation();
        if (!version().equals(t.running())) {
            truth[c] = t.upgrading() || t.running() == null
                    ? new Truth(version(), latestGeneration, t.healthy(), false)
                    : new Truth(t.running(), t.processedGeneration(), t.healthy(), true);
        } else {
            truth[c] = new Truth(t.running(), latestGeneration, t.healthy(), false);
        }
    }

    /** The component computes a status from what it truly is now; it may land later. */
    void compute(int c, boolean partial) {
        if (silent[c] || crs.get(c).isEmpty()) {
            return;
        }
        Truth t = truth[c];
        long crGeneration = last(crs.get(c)).generation();
        boolean byGeneration = EVIDENCE[c] == ObservationEvidence.OBSERVED_GENERATION;
        Long generation = byGeneration ? t.processedGeneration() : null;
        List<Condition> conditions = new ArrayList<>();
        conditions.add(new Condition("Available", t.running() != null && t.healthy() ? "True" : "False", null, null,
                generation, now));
        conditions.add(new Condition("Progressing",
                t.upgrading() || t.processedGeneration() < crGeneration ? "True" : "False", null, null, generation, now));
        if (!partial) {
            conditions.add(new Condition("Degraded", t.healthy() ? "False" : "True", null, null, generation, now));
        }
        inFlight[c] = new ComponentRevision.Report(generation, t.running(),
                t.upgrading() ? version() : t.running(), conditions, t);
    }

    void land(int c) {
        if (inFlight[c] == null || crs.get(c).isEmpty()) {
            return;
        }
        crs.get(c).add(last(crs.get(c)).withStatus(rv++, inFlight[c]));
        inFlight[c] = null;
    }

    void setHealthy(int c, boolean healthy) {
        Truth t = truth[c];
        truth[c] = new Truth(t.running(), t.processedGeneration(), healthy, t.upgrading());
    }

    void setSilent(int c, boolean value) {
        silent[c] = value;
        if (value) {
            inFlight[c] = null;
        }
    }

    void restart() {
        startProcess();
    }

    void release() {
        if (newest < MAX_RELEASE) {
            newest++;
        }
    }

    /** OLM reads the OperatorCondition of the installed CSV; if upgradeable and a newer release exists, upgrades. */
    void olmPolls(boolean skipToNewest) {
        OperatorCondition.Write read = condition.olmRead();
        if (read == null) {
            return;
        }
        trueReadsByOlm++;
        checkInvariant(read);
        if (newest > installed) {
            installed = skipToNewest ? newest : installed + 1;
            upgradesByOlm++;
            trace.add("-> OLM upgraded to " + version());
            // OLM replaces the Deployment: a new process, a new CSV with its own OperatorCondition
            startProcess();
        }
    }

    // ================= the operator =================

    private void startProcess() {
        condition = condition == null || !condition.version.equals(version()) ? new OperatorCondition(version())
                : condition;
        process = new Process();
        // GateStartup: Initializing is written before readiness, so OLM never sees a missing condition
        condition.write(false, GateReason.Initializing.name(), null);
        process.held = true;
    }

    /** The process dies in the middle of a reconcile, after writing up to {@code writes} component specs. */
    void crashDuringReconcile(int writes) {
        reconcile(writes);
        restart();
    }

    void reconcile() {
        reconcile(Integer.MAX_VALUE);
    }

    /** One reconcile of the HyperConverged, as HyperConvergedReconciler does it; stops after {@code maxWrites} writes. */
    private void reconcile(int maxWrites) {
        Process p = process;
        HcoRevision h = p.hcoCache();
        String failure = null;
        int writes = 0;
        for (int c = 0; c < N && failure == null; c++) {
            if (writes >= maxWrites) {
                return; // crashed: nothing more is written, not even the OperatorCondition
            }
            ComponentRevision cached = p.componentCache(c);
            List<ComponentRevision> history = crs.get(c);
            ComponentRevision latest = history.isEmpty() ? null : last(history);
            if (cached == null) {
                if (latest != null) {
                    failure = COMPONENTS[c] + " already exists";
                    break;
                }
                ComponentRevision created = new ComponentRevision(rv++, 1, h.generation(), now, null, null, null,
                        List.of(), null);
                history.add(created);
                writes++;
                p.lastWrites[c] = new WriteRecord(Long.toString(created.resourceVersion()), 1);
            } else if (cached.specFromHcoGeneration() != h.generation()) {
                if (cached != latest) {
                    failure = COMPONENTS[c] + ": 409 Conflict";
                    break;
                }
                ComponentRevision written = latest.withSpec(rv++, h.generation(), now);
                history.add(written);
                writes++;
                p.lastWrites[c] = new WriteRecord(Long.toString(written.resourceVersion()), written.generation());
            }
        }
        Long applied = null;
        if (failure == null) {
            applied = h.generation();
            p.fullReconcileDone = true;
        }
        List<GateInput.Component> components = new ArrayList<>();
        ComponentRevision[] seen = new ComponentRevision[N];
        long[] latestGenerations = new long[N];
        for (int c = 0; c < N; c++) {
            seen[c] = p.componentCache(c);
            latestGenerations[c] = crs.get(c).isEmpty() ? 0 : last(crs.get(c)).generation();
            ComponentObservation observation = seen[c] == null ? ComponentObservation.absent() : seen[c].observation();
            components.add(new GateInput.Component(
                    new ComponentExpectation(COMPONENTS[c], version(), EVIDENCE[c], true, p.lastWrites[c]), observation));
        }
        GateInput input = new GateInput(now, version(), p.fullReconcileDone, true,
                new HyperConvergedObservation(true, false, h.generation(), applied, h.recordedVersion()), components,
                failure == null ? null : "applying component specs failed: " + failure);
        Assessment assessment = GateEvaluator.assess(input);
        GateDecision decision = Stabilizer.decide(assessment, p.openSince, WINDOW, now);
        p.openSince = decision.openSince();
        p.lastAssessmentOpen = assessment.open();
        // GateService.publish: the first opening write of a process is a closing one
        if (decision.upgradeable() && !p.held) {
            condition.write(false, GateReason.Initializing.name(), null);
        } else {
            condition.write(decision.upgradeable(), decision.reason().name(),
                    new Evidence(version(), h.generation(), h.recordedVersion(), seen, latestGenerations));
        }
        p.held = true;
        // the HyperConverged status: applied generation, and the version once everything converged
        boolean recordNow = failure == null && assessment.componentsConverged() && !version().equals(h.recordedVersion());
        Long observed = applied != null ? applied : h.observedGeneration();
        String recorded = recordNow ? version() : h.recordedVersion();
        if (!java.util.Objects.equals(observed, h.observedGeneration()) || !java.util.Objects.equals(recorded,
                h.recordedVersion())) {
            if (h == last(hco)) {
                hco.add(new HcoRevision(rv++, h.generation(), observed, recorded));
            }
            // else: 409 on the status PUT; the next reconcile retries on fresher data
        }
    }

    // ================= the invariant =================

    private void checkInvariant(OperatorCondition.Write read) {
        Evidence e = read.evidence();
        String problem = null;
        if (e == null) {
            problem = "Upgradeable=True with no snapshot behind it";
        } else if (!e.version().equals(version())) {
            problem = "written by " + e.version() + " while " + version() + " runs";
        } else if (!e.version().equals(e.recordedVersion())) {
            problem = "version " + e.version() + " not recorded (recorded " + e.recordedVersion() + ")";
        } else {
            for (int c = 0; c < N && problem == null; c++) {
                ComponentRevision r = e.revisions()[c];
                if (r == null) {
                    problem = COMPONENTS[c] + ": no CR in the snapshot";
                } else if (r.truthAtReport() == null) {
                    problem = COMPONENTS[c] + ": never reported";
                } else if (!r.truthAtReport().convergedAt(e.version(), r.generation())) {
                    problem = COMPONENTS[c] + ": truly " + r.truthAtReport() + " for CR generation " + r.generation();
                } else if (r.specFromHcoGeneration() != e.hcoGeneration()) {
                    problem = COMPONENTS[c] + ": spec from HyperConverged generation " + r.specFromHcoGeneration()
                            + ", snapshot saw " + e.hcoGeneration();
                } else if (r.generation() != e.latestGenerations()[c]) {
                    problem = COMPONENTS[c] + ": converged on CR generation " + r.generation() + " but generation "
                            + e.latestGenerations()[c] + " was already written";
                }
            }
        }
        if (problem != null) {
            violations.add("OLM read Upgradeable=True at " + now + ": " + problem);
        }
    }

    /**
     * Liveness: from here on everything converges and stays so; the gate must open within the
     * stabilization window plus one evaluation of the first evaluation that found it converged.
     * Returns null when it did, else why not.
     */
    String settle() {
        for (int c = 0; c < N; c++) {
            setSilent(c, false);
            setHealthy(c, true);
        }
        Instant firstOpen = null;
        for (int round = 0; round < 60; round++) {
            now = now.plusSeconds(1);
            for (int c = 0; c < N; c++) {
                progress(c);
                progress(c);
                compute(c, false);
                now = now.plusMillis(1);
                land(c);
                process.advanceComponentCache(c, Integer.MAX_VALUE);
            }
            process.advanceHcoCache(Integer.MAX_VALUE);
            reconcile();
            condition.olmCopiesSpecToStatus();
            if (firstOpen == null && process.lastAssessmentOpen) {
                firstOpen = now;
            }
            if (condition.latest != null && condition.latest.upgradeable()) {
                Duration took = Duration.between(firstOpen, now);
                if (took.compareTo(WINDOW.plusSeconds(1).plusMillis(N)) > 0) {
                    return "opened " + took + " after the first converged evaluation (window " + WINDOW + ")";
                }
                OperatorCondition.Write read = condition.olmRead();
                if (read == null) {
                    return "written True but OLM does not read it";
                }
                checkInvariant(read);
                return null;
            }
        }
        return "never opened: last decision " + (condition.latest == null ? "none" : condition.latest.reason())
                + (firstOpen == null ? ", never converged" : ", converged since " + firstOpen);
    }

    private static <T> T last(List<T> list) {
        return list.get(list.size() - 1);
    }

    // ================= parts =================

    /** What the operator based an OperatorCondition write on. */
    record Evidence(String version, long hcoGeneration, String recordedVersion, ComponentRevision[] revisions,
            long[] latestGenerations) {
    }

    /** The in-memory state of one operator process, and its informer caches. */
    private final class Process {
        final WriteRecord[] lastWrites = new WriteRecord[N];
        final int[] componentCachePosition = new int[N];
        int hcoCachePosition;
        Instant openSince;
        boolean fullReconcileDone;
        boolean held;
        boolean lastAssessmentOpen;

        Process() {
            // informers start with a LIST: current as of start-up
            for (int c = 0; c < N; c++) {
                componentCachePosition[c] = crs.get(c).size() - 1;
            }
            hcoCachePosition = hco.size() - 1;
        }

        ComponentRevision componentCache(int c) {
            return componentCachePosition[c] < 0 ? null : crs.get(c).get(componentCachePosition[c]);
        }

        HcoRevision hcoCache() {
            return hco.get(hcoCachePosition);
        }

        void advanceComponentCache(int c, int by) {
            componentCachePosition[c] = (int) Math.min((long) componentCachePosition[c] + by, crs.get(c).size() - 1);
        }

        void advanceHcoCache(int by) {
            hcoCachePosition = (int) Math.min((long) hcoCachePosition + by, hco.size() - 1);
        }
    }

    /** One CSV's OperatorCondition: the operator writes spec; OLM copies it to status and reads that. */
    static final class OperatorCondition {
        final String version;
        long generation;
        Write latest;
        long copiedGeneration = -1;
        Write copied;

        OperatorCondition(String version) {
            this.version = version;
        }

        void write(boolean upgradeable, String reason, Evidence evidence) {
            if (latest != null && latest.upgradeable() == upgradeable && latest.reason().equals(reason)) {
                return; // the writer compares with the live object: no change, no write
            }
            generation++;
            latest = new Write(upgradeable, reason, evidence);
        }

        void olmCopiesSpecToStatus() {
            copied = latest;
            copiedGeneration = generation;
        }

        /** OLM's rule: a status condition of an older generation is stale and blocks; returns the write when upgradeable. */
        Write olmRead() {
            if (copied == null || copiedGeneration != generation || !copied.upgradeable()) {
                return null;
            }
            return copied;
        }

        record Write(boolean upgradeable, String reason, Evidence evidence) {
        }
    }

    @Override
    public String toString() {
        return "installed " + version() + ", newest v" + newest + ", truths " + Arrays.toString(truth);
    }
}
