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
import io.kubevirt.hco.core.SpecState;
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
            ObservationEvidence.STATUS_WRITTEN_AFTER_SPEC, ObservationEvidence.STATUS_WRITTEN_AFTER_SPEC,
            ObservationEvidence.OBSERVED_GENERATION };
    /**
     * Which components render only part of their spec (CDI: cdi-operator renders the pull policy,
     * placement, log verbosity…, not spec.config): an edit may change the rest only, after which
     * such a component writes nothing. The others render every field we set.
     */
    static final boolean[] RENDERS_PART = { false, true, false, false };
    /** Which components set no heartbeat: their condition times are transition times (cluster-network-addons). */
    static final boolean[] TRANSITION_TIMES_ONLY = { false, false, true, false };
    /** ComponentWriter.STATUS_QUIET: a write that renews the status record waits this long after that status was first seen. */
    static final Duration STATUS_QUIET = Duration.ofSeconds(1);
    /** Component clock offsets a "clock" step picks from: up to 10 s either way. */
    static final int[] CLOCK_OFFSETS_S = { -10, -3, 3, 10 };
    static final Duration WINDOW = Duration.ofSeconds(5);
    static final int MAX_RELEASE = 5;
    private static final int N = COMPONENTS.length;
    /** 27 single steps, and 8 codes (about a quarter of all steps) for a second of normal life. */
    static final int KINDS = 35;
    /** GateService retries a decision that did not reach the OperatorCondition after this long. */
    static final Duration WRITE_RETRY = Duration.ofSeconds(2);
    /** The SDK's first retry of a reconcile that threw (quarkus-operator-sdk's default initial interval). */
    static final Duration FAILURE_RETRY = Duration.ofSeconds(2);
    /** HyperConvergedReconciler retries a refused component deletion after this long. */
    static final Duration DELETION_REFUSED_RETRY = Duration.ofSeconds(15);
    /** The reconciler's longest sleep without events (hco.gate.reassert-interval). */
    static final Duration MAX_INTERVAL = Duration.ofSeconds(60);
    static final int CODES = KINDS * N * 4 * 4;
    private static final String[] STEPS = { "edit", "progress #", "report #", "report # partially", "compute #",
            "land #", "degrade #", "recover #", "silence #", "unsilence #", "cache # +{k}", "cache hco +{k}", "reconcile",
            "crash after {k} component writes", "restart", "release", "olm sync", "olm poll", "edit # out of band",
            "refresh # heartbeats", "clock # off by {k}", "OLM recreates the OperatorCondition", "a standby starts",
            "the next {k} OperatorCondition writes fail", "the standby becomes leader",
            "delete the HyperConverged (KubeVirt refuses while VMs exist)", "the confirmation reads sent ahead return, then the pass",
            "second of normal life" };

    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private long rv = 1;
    /** The first resourceVersion written at the current instant: anything below was written at an earlier one. */
    private long rvAtInstantStart = 1;
    final List<String> trace = new ArrayList<>();
    final List<String> violations = new ArrayList<>();

    // ---- the API server: every revision ----
    private final List<HcoRevision> hco = new ArrayList<>();
    private final List<List<ComponentRevision>> crs = new ArrayList<>();

    // ---- component operators ----
    private final Truth[] truth = new Truth[N];
    private final boolean[] silent = new boolean[N];
    private final ComponentRevision.Report[] inFlight = new ComponentRevision.Report[N];
    private final int[] clockOffset = new int[N];
    /**
     * The clock of a component proven by its status writes stepped back in this schedule. Its next
     * status may then repeat, to the
     * second, the one recorded at a spec write, which the gate (fail-closed) cannot tell from no
     * write at all: liveness is claimed for clocks that do not step back.
     */
    boolean clockSteppedBack;
    /**
     * The assumption behind status-written evidence: a component that wrote its status after a spec
     * write without having looked at that spec (cluster-network-addons refreshes heartbeats first)
     * reports what the spec led to within half the stabilization window. Enforced here as a deadline.
     */
    private final Instant[] reportDeadline = new Instant[N];
    /** Sensitivity check: judge status-written components by the old clock comparison instead. */
    final boolean clockEvidence;
    /**
     * Sensitivity check: the old cleanup, which deleted the component CRs before it evaluated, so a
     * refused deletion left the previous decision in place.
     */
    final boolean deleteBeforeEvaluating;
    /** The writer's rule for the "status at spec write" record (sensitivity checks weaken it). */
    final WriterRule writerRule;
    /** How an opening is confirmed (sensitivity checks weaken it). */
    final ConfirmationRule confirmationRule;
    /** Openings confirmed by reads sent ahead of their pass (ConfirmationReads), in this schedule. */
    int openingsConfirmedAhead;

    /** How GateService confirms a decision that opens a closed gate. */
    enum ConfirmationRule {
        /**
         * As shipped: reads sent ahead of the pass stand in when they are at most
         * ConfirmationReads.MAX_AGE old (in the model: taken at the decision's instant) and found the
         * revisions the caches hold; otherwise the pass reads again.
         */
        SHIPPED,
        /** No confirmation: the caches' decision is published as it is. */
        NONE,
        /** Reads sent ahead stand in whatever the caches hold. */
        AHEAD_WITHOUT_REVISION_CHECK
    }

    /** How ComponentWriter treats the status record on a spec write. */
    enum WriterRule {
        /** As shipped: renewed when what the component renders changed, after the one-second hold. */
        SHIPPED,
        /** Renewed on every spec write (the rule before issue #29 item 5): waits for writes that never come. */
        RENEWS_ALWAYS,
        /** Kept on every spec write: an old status would prove a new spec. */
        KEEPS_ALWAYS,
        /** Renewed as shipped, without the hold: a status can come back identical, to the second. */
        NO_HOLD
    }

    // ---- releases and OLM ----
    int installed = 1;
    private int newest = 1;
    private OperatorCondition condition;
    int upgradesByOlm;
    int trueReadsByOlm;

    // ---- the operator process (lost on restart) ----
    private Process process;
    /** An OperatorCondition change the leader has not reconciled yet. */
    private boolean operatorConditionEvent;
    /** How many of the operator's next OperatorCondition writes the API server refuses. */
    private int failingWrites;
    private String lastDecision;

    StackModel() {
        this(false, false);
    }

    StackModel(boolean clockEvidence, boolean deleteBeforeEvaluating) {
        this(clockEvidence, deleteBeforeEvaluating, WriterRule.SHIPPED);
    }

    StackModel(WriterRule writerRule) {
        this(false, false, writerRule, ConfirmationRule.SHIPPED);
    }

    StackModel(ConfirmationRule confirmationRule) {
        this(false, false, WriterRule.SHIPPED, confirmationRule);
    }

    private StackModel(boolean clockEvidence, boolean deleteBeforeEvaluating, WriterRule writerRule) {
        this(clockEvidence, deleteBeforeEvaluating, writerRule, ConfirmationRule.SHIPPED);
    }

    private StackModel(boolean clockEvidence, boolean deleteBeforeEvaluating, WriterRule writerRule,
            ConfirmationRule confirmationRule) {
        this.clockEvidence = clockEvidence;
        this.deleteBeforeEvaluating = deleteBeforeEvaluating;
        this.writerRule = writerRule;
        this.confirmationRule = confirmationRule;
        long[] renderedAt = new long[N];
        Arrays.fill(renderedAt, 1);
        hco.add(new HcoRevision(rv++, 1, null, null, false, renderedAt));
        for (int c = 0; c < N; c++) {
            crs.add(new ArrayList<>());
            truth[c] = new Truth(null, 0, true, false, false);
        }
        startProcess();
    }

    /** Whether the HyperConverged was deleted in this schedule. */
    boolean deleted() {
        return last(hco).deleting();
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
        long advance = ((v / (KINDS * N * 4)) % 4) * 700L;
        if (advance > 0) {
            now = now.plusMillis(advance);
            rvAtInstantStart = rv;
        }
        trace.add(STEPS[Math.min(kind, STEPS.length - 1)].replace("#", COMPONENTS[c]).replace("{k}", Integer.toString(k)));
        keepReportDeadlines();
        switch (kind) {
            case 0 -> editSpec(k % 2 == 1);
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
            case 18 -> editOutOfBand(c);
            case 19 -> refreshHeartbeats(c);
            case 20 -> {
                clockSteppedBack |= EVIDENCE[c] == ObservationEvidence.STATUS_WRITTEN_AFTER_SPEC
                        && CLOCK_OFFSETS_S[k - 1] < clockOffset[c];
                clockOffset[c] = CLOCK_OFFSETS_S[k - 1];
            }
            case 21 -> operatorConditionRecreated();
            case 22 -> standbyStarts();
            case 23 -> failingWrites = k;
            case 24 -> leaderChanges();
            // rare (1 code in 16 of its kind): a deleted stack stays closed for the rest of the schedule
            case 25 -> {
                if (c == 0 && k == 4) {
                    deleteHyperConverged();
                }
            }
            case 26 -> {
                // the timer that sends them fires a round trip before the pass's: that pass follows
                // if it is due (an event, or its timer), on whatever the caches hold by then
                readsAheadReturn();
                reconcileAsTheSdkWould();
            }
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
        rvAtInstantStart = rv;
        for (int c = 0; c < N; c++) {
            progress(c);
            compute(c, false);
            land(c);
            process.advanceComponentCache(c, Integer.MAX_VALUE);
        }
        process.advanceHcoCache(Integer.MAX_VALUE);
        if (process.readsAheadPlanned && !now.isBefore(process.nextTimer)) {
            // the timer that sends them fires a round trip before the pass's
            readsAheadReturn();
        }
        reconcileAsTheSdkWould();
        condition.olmCopiesSpecToStatus();
        olmPolls(skipToNewest);
    }

    /**
     * The SDK runs the reconciler on an event (a cache that moved, an OperatorCondition change) or
     * when its own timer fires (the window's recheck, the version record, a write retry, the max
     * interval) — not on a clock of the model's. (The "reconcile" step stands for any other event.)
     */
    private void reconcileAsTheSdkWould() {
        // every revision an informer received since the last reconcile is an event (see the
        // Process's advance methods for which HyperConverged updates the SDK passes on)
        boolean event = process.eventPending || operatorConditionEvent;
        boolean timer = process.nextTimer != null && !now.isBefore(process.nextTimer);
        if (event || timer) {
            reconcile();
        }
    }

    /** An edit of the HyperConverged; {@code renderedByAll}: it also changes what CDI renders (else only its config). */
    void editSpec(boolean renderedByAll) {
        HcoRevision last = last(hco);
        long generation = last.generation() + 1;
        long[] renderedAt = last.renderedAt().clone();
        for (int c = 0; c < N; c++) {
            if (!RENDERS_PART[c] || renderedByAll) {
                renderedAt[c] = generation;
            }
        }
        hco.add(new HcoRevision(rv++, generation, last.observedGeneration(), last.recordedVersion(), last.deleting(),
                renderedAt));
    }

    /**
     * The component operator works: starts or finishes its upgrade to the installed version, or
     * processes its spec. A component proven by its status writes rolls its operands when what it
     * renders changed, and reports that (Progressing) before the roll ends: the roll ends only once
     * its status said so.
     */
    void progress(int c) {
        if (silent[c]) {
            return;
        }
        Truth t = truth[c];
        ComponentRevision latest = crs.get(c).isEmpty() ? null : last(crs.get(c));
        long latestGeneration = latest == null ? 0 : latest.generation();
        boolean rolls = EVIDENCE[c] == ObservationEvidence.STATUS_WRITTEN_AFTER_SPEC && latest != null
                && t.running() != null && latest.renderedGeneration() > t.processedGeneration();
        boolean rollReported = t.rolling() && latest != null && latest.truthAtReport() != null
                && latest.truthAtReport().rolling() && latest.truthAtReport().processedGeneration() == t.processedGeneration();
        boolean rolling = rolls || (t.rolling() && !rollReported);
        if (!version().equals(t.running())) {
            truth[c] = t.upgrading() || t.running() == null
                    ? new Truth(version(), latestGeneration, t.healthy(), false, false)
                    : new Truth(t.running(), t.processedGeneration(), t.healthy(), true, t.rolling());
        } else {
            truth[c] = new Truth(t.running(), latestGeneration, t.healthy(), false, rolling);
        }
    }

    /** The component computes a status from what it truly is now; it may land later. */
    void compute(int c, boolean partial) {
        if (silent[c] || crs.get(c).isEmpty()) {
            return;
        }
        Truth t = truth[c];
        ComponentRevision latest = last(crs.get(c));
        long crGeneration = latest.generation();
        boolean byGeneration = EVIDENCE[c] == ObservationEvidence.OBSERVED_GENERATION;
        Long generation = byGeneration ? t.processedGeneration() : null;
        // a component proven by its status writes says nothing of a spec it has not looked at; once
        // it has, its operands roll (when what it renders changed) and it says Progressing
        boolean progressing = t.upgrading() || t.rolling() || (byGeneration && t.processedGeneration() < crGeneration);
        List<Condition> conditions = new ArrayList<>();
        conditions.add(condition(c, latest, "Available", t.running() != null && t.healthy() && !t.rolling(), generation));
        conditions.add(condition(c, latest, "Progressing", progressing, generation));
        if (!partial) {
            conditions.add(condition(c, latest, "Degraded", !t.healthy(), generation));
        }
        if (!byGeneration && t.processedGeneration() < crGeneration && reportDeadline[c] == null) {
            // a status computed before the component looked at the CR's spec (a refresh of what it
            // had): by the assumption of status-written evidence, what the spec leads to follows
            // within half the window
            reportDeadline[c] = now.plus(WINDOW.dividedBy(2));
        }
        inFlight[c] = new ComponentRevision.Report(generation, t.running(),
                t.upgrading() ? version() : t.running(), conditions, t);
    }

    /**
     * A condition with its time: a heartbeat stamped at the write (CDI and the others), or for
     * cluster-network-addons, which sets no heartbeat, the time of its last transition.
     */
    private Condition condition(int c, ComponentRevision latest, String type, boolean isTrue, Long generation) {
        String status = isTrue ? "True" : "False";
        Instant time = componentNow(c);
        if (TRANSITION_TIMES_ONLY[c]) {
            time = latest.conditions().stream().filter(x -> x.type().equals(type) && x.status().equals(status))
                    .map(Condition::lastHeartbeatTime).findFirst().orElse(time);
        }
        return new Condition(type, status, null, null, generation, time);
    }

    /** metav1.Time: whole seconds of the component's own clock. */
    private Instant componentNow(int c) {
        return now.plusSeconds(clockOffset[c]).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    }

    /** The status lands; one equal to the status there is no write (the API server keeps the object as it is). */
    void land(int c) {
        if (inFlight[c] == null || crs.get(c).isEmpty()) {
            return;
        }
        List<ComponentRevision> history = crs.get(c);
        ComponentRevision latest = last(history);
        if (latest.sameStatus(inFlight[c])) {
            history.set(history.size() - 1, latest.confirmedBy(inFlight[c].truth()));
        } else {
            history.add(latest.withStatus(rv++, inFlight[c]));
        }
        if (inFlight[c].truth().processedGeneration() >= latest.generation()) {
            reportDeadline[c] = null;
        }
        inFlight[c] = null;
    }

    /** {@code kubectl edit} of a component's spec (our annotations stay). */
    void editOutOfBand(int c) {
        if (!crs.get(c).isEmpty()) {
            crs.get(c).add(last(crs.get(c)).withForeignSpec(rv++));
        }
    }

    /**
     * cluster-network-addons' habit: the conditions computed before it looked at the new spec are
     * written again with fresh heartbeats. The status changes, the truth behind it does not.
     */
    void refreshHeartbeats(int c) {
        if (silent[c] || crs.get(c).isEmpty() || EVIDENCE[c] == ObservationEvidence.OBSERVED_GENERATION) {
            return;
        }
        ComponentRevision latest = last(crs.get(c));
        if (latest.truthAtReport() == null) {
            return;
        }
        List<Condition> refreshed = latest.conditions().stream().map(x -> new Condition(x.type(), x.status(),
                x.reason(), x.message(), x.observedGeneration(), componentNow(c))).toList();
        ComponentRevision.Report report = new ComponentRevision.Report(latest.observedGeneration(),
                latest.observedVersion(), latest.targetVersion(), refreshed, latest.truthAtReport());
        if (!latest.sameContent(report)) {
            crs.get(c).add(latest.withStatus(rv++, report));
            // the refreshed status reflects an older spec than the CR's: by the assumption, the
            // status that reflects the current one follows within half the window
            if (latest.truthAtReport().processedGeneration() < latest.generation() && reportDeadline[c] == null) {
                reportDeadline[c] = now.plus(WINDOW.dividedBy(2));
            }
        }
    }

    /** The assumption (see {@link #reportDeadline}): past its deadline, the component looks and reports. */
    private void keepReportDeadlines() {
        for (int c = 0; c < N; c++) {
            if (reportDeadline[c] != null && !now.isBefore(reportDeadline[c])) {
                boolean wasSilent = silent[c];
                silent[c] = false;
                progress(c);
                compute(c, false);
                land(c);
                silent[c] = wasSilent;
                reportDeadline[c] = null;
            }
        }
    }

    void setHealthy(int c, boolean healthy) {
        Truth t = truth[c];
        truth[c] = new Truth(t.running(), t.processedGeneration(), healthy, t.upgrading(), t.rolling());
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

    /**
     * Someone deletes the OperatorCondition and OLM recreates it empty (which OLM reads as
     * upgradeable). The operator watches it: the event reaches the reconciler before OLM's next
     * look (a watch delivers in milliseconds, OLM resyncs in seconds).
     */
    void operatorConditionRecreated() {
        condition = new OperatorCondition(version());
        // a write refused at the very moment OLM recreated the object cannot be helped by any
        // operator (OLM reads the empty object as upgradeable): not part of what is modelled
        failingWrites = 0;
        reconcile();
    }

    /**
     * A second replica (or a restarted one) starts: its first write is Upgradeable=False/Initializing,
     * over whatever the leader wrote. The leader hears of it through its watch, at a later step.
     */
    void standbyStarts() {
        condition.write(false, GateReason.Initializing.name(), null);
        operatorConditionEvent = true;
    }

    /**
     * The leader stops (killed, or a rollout hands over) and the standby, running all along, takes
     * the lease: its controllers start now with fresh caches and no decision state; it wrote its
     * Initializing when it started ("a standby starts"), not now. Leases keep the two from
     * overlapping (the old leader stops writing within the renew deadline, before the lease can
     * be taken), so the old leader writes nothing after this.
     */
    void leaderChanges() {
        process = new Process();
        process.held = true;
    }

    /**
     * An administrator deletes the HyperConverged while VMs exist: the finalizer keeps it, and
     * KubeVirt's webhook refuses the deletion of its CR for the rest of the schedule. (The other
     * components' CRs are being finalized by their operators and stay in the model too.)
     */
    void deleteHyperConverged() {
        HcoRevision last = last(hco);
        if (!last.deleting()) {
            hco.add(new HcoRevision(rv++, last.generation(), last.observedGeneration(), last.recordedVersion(), true,
                    last.renderedAt()));
        }
    }

    /**
     * The reads ConfirmationReads sends ahead of a planned opening return with what the API server
     * holds now. Only a process whose last pass planned an opening sends them.
     */
    void readsAheadReturn() {
        Process p = process;
        if (!p.readsAheadPlanned) {
            return;
        }
        int[] latest = new int[N];
        for (int c = 0; c < N; c++) {
            latest[c] = crs.get(c).size() - 1;
        }
        p.readsAhead = new ReadsAhead(now, hco.size() - 1, latest);
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
        p.eventPending = false;
        HcoRevision h = p.hcoCache();
        if (h.deleting()) {
            cleanup(p, h);
            return;
        }
        String failure = null;
        Instant heldUntil = null;
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
                ComponentRevision created = new ComponentRevision(rv++, 1, h.generation(), "none", null, null, null,
                        List.of(), null, h.renderedAt()[c], 1);
                history.add(created);
                specWrittenAt.put(16L + c, now);
                writes++;
                p.lastWrites[c] = new WriteRecord(Long.toString(created.resourceVersion()), 1);
            } else if (cached.specFromHcoGeneration() != h.generation()) {
                if (cached != latest) {
                    failure = COMPONENTS[c] + ": 409 Conflict";
                    break;
                }
                long rendered = h.renderedAt()[c];
                boolean statusWritten = EVIDENCE[c] == ObservationEvidence.STATUS_WRITTEN_AFTER_SPEC;
                boolean rendersAsBefore = RENDERS_PART[c] && latest.renderedFromHco() == rendered
                        && latest.specFromHcoGeneration() != ComponentRevision.FOREIGN_SPEC;
                boolean keep = statusWritten && switch (writerRule) {
                    case KEEPS_ALWAYS -> true;
                    case RENEWS_ALWAYS -> false;
                    default -> rendersAsBefore;
                };
                if (statusWritten && !keep && writerRule != WriterRule.NO_HOLD) {
                    Instant due = p.holdUntil(c, latest.statusFingerprint(), now);
                    if (due != null) {
                        // held: the reconcile comes back after it, and the generation is not applied yet
                        heldUntil = heldUntil == null || due.isBefore(heldUntil) ? due : heldUntil;
                        continue;
                    }
                }
                ComponentRevision written = latest.withSpec(rv++, h.generation(), rendered, keep);
                history.add(written);
                specWrittenAt.put(written.generation() * 16 + c, now);
                writes++;
                p.lastWrites[c] = new WriteRecord(Long.toString(written.resourceVersion()), written.generation());
            }
        }
        Long applied = null;
        if (failure == null && heldUntil == null) {
            applied = h.generation();
            p.fullReconcileDone = true;
        }
        Snapshot snap = snapshot(p, h, applied, failure);
        GateDecision decision = Stabilizer.decide(snap.assessment(), p.openSince, WINDOW, now);
        ReadsAhead ahead = p.readsAhead;
        p.readsAhead = null;
        if (decision.upgradeable() && (condition.latest == null || !condition.latest.upgradeable())
                && confirmationRule != ConfirmationRule.NONE && readsAheadStandIn(p, ahead)) {
            // ConfirmationReads: reads sent ahead of this pass, at its instant, found what the caches
            // hold: the snapshot from the caches is the snapshot from those reads
            openingsConfirmedAhead++;
        } else if (decision.upgradeable() && (condition.latest == null || !condition.latest.upgradeable())
                && confirmationRule != ConfirmationRule.NONE) {
            // GateService: before a closed gate opens, the decision is confirmed on fresh reads. (The
            // model moves the caches to what the reads returned; the watch events for those revisions
            // still reach the SDK afterwards, and it reconciles for them: pending.)
            p.advanceHcoCache(Integer.MAX_VALUE);
            for (int c = 0; c < N; c++) {
                p.advanceComponentCache(c, Integer.MAX_VALUE);
            }
            // (eventPending set by the moves above)
            snap = snapshot(p, h, applied, failure);
            HcoRevision fresh = p.hcoCache();
            Assessment confirmed = fresh.generation() != h.generation()
                    ? GateEvaluator.assess(snap.input().withHyperConverged(new HyperConvergedObservation(true, false,
                            fresh.generation(), applied, fresh.recordedVersion())))
                    : snap.assessment();
            snap = new Snapshot(snap.input(), confirmed, snap.seen(), snap.latestGenerations());
            decision = Stabilizer.decide(confirmed, p.openSince, WINDOW, now);
        }
        Assessment assessment = snap.assessment();
        ComponentRevision[] seen = snap.seen();
        long[] latestGenerations = snap.latestGenerations();
        String staleOpening = decision.upgradeable() && (condition.latest == null || !condition.latest.upgradeable())
                ? staleness(p) : null;
        p.openSince = decision.openSince();
        p.lastAssessmentOpen = assessment.open();
        // the pass plans the reads of the opening it waits for (a window running), or cancels them
        p.readsAheadPlanned = decision.recheckAfter() != null;
        operatorConditionEvent = false;
        // the reconciler comes PREPARE_LEAD before the window's end and prepares the opening
        // (GateService): the model's instants are whole seconds apart, so its pass always runs at or
        // after that end and opens as an unprepared pass does; PreparedOpeningTest covers the rest
        p.nextTimer = decision.recheckAfter() != null
                ? now.plus(decision.recheckAfter()).minus(io.kubevirt.hco.gate.GateService.PREPARE_LEAD)
                : now.plus(MAX_INTERVAL);
        if (heldUntil != null && heldUntil.plusMillis(5).isBefore(p.nextTimer)) {
            p.nextTimer = heldUntil.plusMillis(5);
        }
        if (failure != null && FAILURE_RETRY.compareTo(Duration.between(now, p.nextTimer)) < 0) {
            // the reconciler rethrows a failed write, and the SDK retries it (not only on the next event)
            p.nextTimer = now.plus(FAILURE_RETRY);
        }
        publish(p, decision, new Evidence(version(), h.generation(), h.recordedVersion(), seen, latestGenerations,
                h.deleting(), staleOpening));
        // the HyperConverged status: applied generation, and the version once everything converged
        boolean recordNow = failure == null && assessment.componentsConverged() && !version().equals(h.recordedVersion());
        if (recordNow) {
            p.nextTimer = now.plusMillis(200);
        }
        Long observed = applied != null ? applied : h.observedGeneration();
        String recorded = recordNow ? version() : h.recordedVersion();
        if (!java.util.Objects.equals(observed, h.observedGeneration()) || !java.util.Objects.equals(recorded,
                h.recordedVersion())) {
            if (h == last(hco)) {
                hco.add(h.withStatus(rv++, observed, recorded));
            }
            // else: 409 on the status PUT; the next reconcile retries on fresher data
        }
    }

    /**
     * GateService.publish: the first opening write of a process is a closing one; a refused write
     * leaves OLM reading the previous value and is retried after WRITE_RETRY, without an event.
     */
    private void publish(Process p, GateDecision decision, Evidence evidence) {
        lastDecision = decision.reason() + ": " + decision.message();
        if (failingWrites > 0) {
            failingWrites--;
            p.writePending = true;
            p.nextTimer = java.util.Collections.min(List.of(p.nextTimer, now.plus(WRITE_RETRY)));
        } else if (decision.upgradeable() && !p.held) {
            condition.write(false, GateReason.Initializing.name(), null);
            p.held = true;
            p.writePending = false;
            p.nextTimer = java.util.Collections.min(List.of(p.nextTimer, now.plus(WRITE_RETRY)));
        } else {
            condition.write(decision.upgradeable(), decision.reason().name(), evidence);
            p.held = true;
            p.writePending = false;
        }
    }

    /**
     * HyperConvergedReconciler.cleanup: the decision on the Terminating HyperConverged is published
     * first, then the component CRs are deleted; KubeVirt refuses, so the finalizer stays and the
     * deletion is retried after DELETION_REFUSED_RETRY.
     */
    private void cleanup(Process p, HcoRevision h) {
        p.sawDeletion = true;
        operatorConditionEvent = false;
        p.nextTimer = now.plus(DELETION_REFUSED_RETRY);
        if (deleteBeforeEvaluating) {
            lastDecision = "(deletion refused before any evaluation)";
            return;
        }
        p.fullReconcileDone = true;
        Snapshot snap = snapshot(p, h, h.generation(), null);
        GateDecision decision = Stabilizer.decide(snap.assessment(), p.openSince, WINDOW, now);
        p.openSince = decision.openSince();
        p.lastAssessmentOpen = snap.assessment().open();
        publish(p, decision, new Evidence(version(), h.generation(), h.recordedVersion(), snap.seen(),
                snap.latestGenerations(), true, null));
    }

    private record Snapshot(GateInput input, Assessment assessment, ComponentRevision[] seen, long[] latestGenerations) {
    }

    /**
     * What the confirmation of an opening guarantees: the snapshot it opens on is not older than any
     * revision of the HyperConverged or a component CR written at an earlier instant (more than
     * ConfirmationReads.MAX_AGE before it; the model's instants are at least 700 ms apart). Caches
     * lag by any amount, so without a confirmation this fails. Returns what was stale; null when none.
     */
    private String staleness(Process p) {
        HcoRevision h = p.hcoCache();
        HcoRevision earlierHco = lastBefore(hco, rvAtInstantStart, HcoRevision::resourceVersion);
        if (earlierHco != null && h.resourceVersion() < earlierHco.resourceVersion()) {
            return "HyperConverged at rv " + h.resourceVersion() + ", rv " + earlierHco.resourceVersion() + " already written";
        }
        for (int c = 0; c < N; c++) {
            ComponentRevision seen = p.componentCache(c);
            ComponentRevision earlier = lastBefore(crs.get(c), rvAtInstantStart, ComponentRevision::resourceVersion);
            if (earlier != null && (seen == null || seen.resourceVersion() < earlier.resourceVersion())) {
                return COMPONENTS[c] + " at rv " + (seen == null ? "none" : seen.resourceVersion()) + ", rv "
                        + earlier.resourceVersion() + " already written";
            }
        }
        return null;
    }

    private static <T> T lastBefore(List<T> history, long rvLimit, java.util.function.ToLongFunction<T> rvOf) {
        for (int i = history.size() - 1; i >= 0; i--) {
            if (rvOf.applyAsLong(history.get(i)) < rvLimit) {
                return history.get(i);
            }
        }
        return null;
    }

    /** What reads sent ahead returned: when, and the position of the latest revision of each object then. */
    private record ReadsAhead(Instant at, int hcoPosition, int[] componentPositions) {
    }

    /**
     * Whether reads sent ahead confirm this pass's opening. Their age is checked against the model's
     * instants: steps are 0 or at least 700 ms apart, MAX_AGE is 50 ms, so "young enough" is "taken at
     * this instant".
     */
    private boolean readsAheadStandIn(Process p, ReadsAhead ahead) {
        if (ahead == null || !ahead.at().equals(now)) {
            return false;
        }
        if (confirmationRule == ConfirmationRule.AHEAD_WITHOUT_REVISION_CHECK) {
            return true;
        }
        if (p.hcoCachePosition != ahead.hcoPosition()) {
            return false;
        }
        for (int c = 0; c < N; c++) {
            if (p.componentCachePosition[c] != ahead.componentPositions()[c]) {
                return false;
            }
        }
        return true;
    }

    /** The gate input from the process's caches, as StackSnapshots builds it. */
    private Snapshot snapshot(Process p, HcoRevision h, Long applied, String failure) {
        List<GateInput.Component> components = new ArrayList<>();
        ComponentRevision[] seen = new ComponentRevision[N];
        long[] latestGenerations = new long[N];
        for (int c = 0; c < N; c++) {
            seen[c] = p.componentCache(c);
            latestGenerations[c] = lastWrittenByOperator(c);
            ComponentObservation observation = seen[c] == null ? ComponentObservation.absent()
                    : seen[c].observation(specState(c, seen[c], h));
            components.add(new GateInput.Component(
                    new ComponentExpectation(COMPONENTS[c], version(), EVIDENCE[c], true, p.lastWrites[c]), observation));
        }
        GateInput input = new GateInput(now, version(), p.fullReconcileDone, true,
                new HyperConvergedObservation(true, h.deleting(), h.generation(), applied, h.recordedVersion()), components,
                failure == null ? null : "applying component specs failed: " + failure);
        return new Snapshot(input, GateEvaluator.assess(input), seen, latestGenerations);
    }

    /**
     * The CR generation of the operator's own last spec write (whoever wrote it): a snapshot older
     * than that is what read-your-writes must catch. Out-of-band edits are not counted: nobody can
     * know of them before they reach a cache, and the operator reverts them once they do.
     */
    private long lastWrittenByOperator(int c) {
        List<ComponentRevision> history = crs.get(c);
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).specFromHcoGeneration() != ComponentRevision.FOREIGN_SPEC) {
                return history.get(i).generation();
            }
        }
        return 0;
    }

    /** What ComponentWriter.specState says of a revision; with {@link #clockEvidence}, the old clock rule. */
    private SpecState specState(int c, ComponentRevision r, HcoRevision h) {
        boolean inSync = r.specFromHcoGeneration() == h.generation();
        if (!clockEvidence || EVIDENCE[c] == ObservationEvidence.OBSERVED_GENERATION) {
            return new SpecState(inSync, r.statusAtSpecWrite(), r.statusFingerprint());
        }
        // the rule this project had before: a heartbeat (component clock) later than the spec write (ours)
        Instant beat = r.conditions().stream().map(Condition::lastHeartbeatTime).filter(java.util.Objects::nonNull)
                .max(Instant::compareTo).orElse(null);
        Instant written = specWrittenAt.get(r.generation() * 16 + c);
        boolean after = beat != null && written != null && beat.isAfter(written);
        return new SpecState(inSync, "written", after ? "heartbeat-after" : "written");
    }

    /** For the clock rule only: when the operator's clock saw each spec write (key: generation * 16 + component). */
    private final java.util.Map<Long, Instant> specWrittenAt = new java.util.HashMap<>();

    // ================= the invariant =================

    private void checkInvariant(OperatorCondition.Write read) {
        Evidence e = read.evidence();
        String problem = null;
        if (process.sawDeletion && !process.writePending) {
            // (a refused write is retried; until it lands OLM reads the earlier value, as for any decision)
            problem = "Upgradeable=True after the leader reconciled the HyperConverged's deletion";
        } else if (e == null) {
            problem = "Upgradeable=True with no snapshot behind it";
        } else if (e.staleOpening() != null) {
            problem = "opened on a snapshot older than the API server's at an earlier instant: " + e.staleOpening();
        } else if (e.hcoDeleting()) {
            problem = "Upgradeable=True decided on a HyperConverged being deleted";
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
                } else if (!r.truthAtReport().convergedAt(e.version(), r.renderedGeneration())) {
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
     * The reconciler runs as the SDK runs it: on an event (a cache that moved, an OperatorCondition
     * change) or when its own timer fires (the window's recheck, the version record, the max
     * interval), never on a clock of the model's. Returns null when it did, else why not.
     */
    String settle() {
        failingWrites = 0;
        for (int c = 0; c < N; c++) {
            setSilent(c, false);
            setHealthy(c, true);
        }
        Instant firstOpen = null;
        Instant settleStart = now;
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
            reconcileAsTheSdkWould();
            condition.olmCopiesSpecToStatus();
            if (System.getProperty("hco.model.debug") != null) {
                System.out.println("settle " + now + " open=" + process.lastAssessmentOpen + " latest="
                        + (condition.latest == null ? null : condition.latest.reason()) + " " + lastDecision);
            }
            if (!process.lastAssessmentOpen) {
                // a status equal to the one at the spec write (a component clock stepped back) is
                // no evidence: the assessment may close for a pass; the window counts from its last opening
                firstOpen = null;
            } else if (firstOpen == null) {
                firstOpen = now;
                if (Duration.between(settleStart, now).compareTo(Duration.ofSeconds(15)) > 0) {
                    return "converged only " + Duration.between(settleStart, now) + " after everything settled";
                }
            }
            if (last(hco).deleting()) {
                // a Terminating stack whose deletion KubeVirt refuses: closed, saying so, never open
                if (condition.latest != null && condition.latest.upgradeable() && !process.writePending) {
                    // (a closing write refused by the API server leaves the earlier True until its retry)
                    return "opened while the HyperConverged is being deleted";
                }
                if (process.sawDeletion && condition.latest != null
                        && GateReason.HyperConvergedMissing.name().equals(condition.latest.reason())) {
                    return condition.olmRead() == null ? null : "OLM reads True on a Terminating HyperConverged";
                }
                continue;
            }
            if (condition.latest != null && condition.latest.upgradeable() && firstOpen == null) {
                // a True written before this round whose closing successor has not gone out yet (a
                // refused write waits for its retry): judged once the process decides again
                continue;
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
        if (last(hco).deleting()) {
            return "the HyperConverged is being deleted, and the gate never said so: last decision "
                    + (condition.latest == null ? "none" : condition.latest.reason());
        }
        return "never opened: last decision " + (condition.latest == null ? "none" : condition.latest.reason())
                + (firstOpen == null ? ", never converged" : ", converged since " + firstOpen);
    }

    private static <T> T last(List<T> list) {
        return list.get(list.size() - 1);
    }

    // ================= parts =================

    /** What the operator based an OperatorCondition write on. */
    /**
     * @param staleOpening for a decision that opened the gate: which object's snapshot was older than
     *        a revision written at an earlier instant (null: fresh, or not an opening)
     */
    record Evidence(String version, long hcoGeneration, String recordedVersion, ComponentRevision[] revisions,
            long[] latestGenerations, boolean hcoDeleting, String staleOpening) {
    }

    /** The in-memory state of one operator process, and its informer caches. */
    private final class Process {
        final WriteRecord[] lastWrites = new WriteRecord[N];
        final int[] componentCachePosition = new int[N];
        int hcoCachePosition;
        Instant openSince;
        /** When the SDK runs the reconciler again without an event (rescheduleAfter, max interval). */
        Instant nextTimer;
        boolean fullReconcileDone;
        boolean held;
        boolean lastAssessmentOpen;
        /** This process has reconciled the HyperConverged's deletion. */
        boolean sawDeletion;
        /** Its last OperatorCondition write was refused and waits for its retry. */
        boolean writePending;
        /** Watch events for revisions a fresh read already returned, not yet reconciled. */
        boolean eventPending;
        /** Its last pass waits out the window: reads are sent ahead of the pass that may open. */
        boolean readsAheadPlanned;
        /** What those reads returned (null: not back, or used up by a pass). */
        ReadsAhead readsAhead;
        /** ComponentWriter.statusSeen: per component, the status its writer last saw, and since when. */
        final String[] statusSeen = new String[N];
        final Instant[] statusSeenAt = new Instant[N];

        /** ComponentWriter.holdBeforeSpecWrite: until when a write renewing the record waits; null: it may go now. */
        Instant holdUntil(int c, String status, Instant at) {
            if ("none".equals(status)) {
                return null;
            }
            if (!status.equals(statusSeen[c])) {
                statusSeen[c] = status;
                statusSeenAt[c] = at;
            }
            Instant due = statusSeenAt[c].plus(STATUS_QUIET);
            return at.isBefore(due) ? due : null;
        }

        Process() {
            // the SDK reconciles every primary once at start-up
            nextTimer = now;
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

        /** The informer receives revisions; the SDK reconciles for them, at once or at a later step. */
        void advanceComponentCache(int c, int by) {
            int before = componentCachePosition[c];
            componentCachePosition[c] = (int) Math.min((long) componentCachePosition[c] + by, crs.get(c).size() - 1);
            eventPending |= before != componentCachePosition[c];
        }

        /** As above; the SDK passes a HyperConverged update on when its generation moved or it was marked for deletion. */
        void advanceHcoCache(int by) {
            HcoRevision before = hcoCache();
            hcoCachePosition = (int) Math.min((long) hcoCachePosition + by, hco.size() - 1);
            eventPending |= before.generation() != hcoCache().generation() || before.deleting() != hcoCache().deleting();
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
                // the writer compares with the live object: no change, no write; but the value OLM
                // reads is now the conclusion of this decision, and is judged on its snapshot
                latest = new Write(upgradeable, reason, evidence);
                if (copiedGeneration == generation) {
                    copied = latest;
                }
                return;
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
            if (latest == null) {
                return MISSING; // nothing written in spec: OLM reads "upgradeable"
            }
            if (copied == null || copiedGeneration != generation || !copied.upgradeable()) {
                return null;
            }
            return copied;
        }

        record Write(boolean upgradeable, String reason, Evidence evidence) {
        }

        static final Write MISSING = new Write(true, "(no Upgradeable condition)", null);
    }

    @Override
    public String toString() {
        return "installed " + version() + ", newest v" + newest + ", truths " + Arrays.toString(truth);
    }
}
