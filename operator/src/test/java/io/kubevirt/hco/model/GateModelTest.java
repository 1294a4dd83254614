package io.kubevirt.hco.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The gate's guarantee, checked over generated schedules of the {@link StackModel} (the real core
 * decides; see its Javadoc for the invariant). Seeded and reproducible; a failure is shrunk to a
 * minimal schedule and printed with the model's trace.
 *
 * <pre>
 * mvn -B test -Dtest=GateModelTest                                   # 5,000 schedules (the test command)
 * mvn -B test -Dtest=GateModelTest -Dhco.model.schedules=100000      # the long run
 * mvn -B test -Dtest=GateModelTest -Dhco.model.seed=42               # another seed
 * </pre>
 */
class GateModelTest {

    static final int SCHEDULES = Integer.getInteger("hco.model.schedules", 5_000);
    static final long SEED = Long.getLong("hco.model.seed", 20261202L);

    /** Up to 120 steps; each step is decoded by StackModel.step (action, component, amount, time passing). */
    static Gen<List<Integer>> schedules() {
        return lists().of(integers().between(0, StackModel.CODES - 1)).ofSizeBetween(0, 120);
    }

    @Test
    void olmNeverReadsUpgradeableWhileAComponentHasNotConverged() {
        qt().withExamples(SCHEDULES).withFixedSeed(SEED).forAll(schedules()).checkAssert(schedule -> {
            StackModel model = run(schedule);
            assertThat(model.violations).as(describe(schedule, model)).isEmpty();
        });
        System.out.printf("[model] safety: %d schedules, seed %d%n", SCHEDULES, SEED);
    }

    @Test
    void onceEverythingConvergesAndStaysSoTheGateOpensWithinTheWindowPlusOneEvaluation() {
        int[] excluded = { 0 };
        qt().withExamples(SCHEDULES).withFixedSeed(SEED + 1).forAll(schedules()).checkAssert(schedule -> {
            StackModel model = run(schedule);
            if (model.clockSteppedBack) {
                // safety still holds there (checked above); liveness is claimed for clocks that do not step back
                excluded[0]++;
                return;
            }
            String why = model.settle();
            assertThat(why).as(describe(schedule, model)).isNull();
            assertThat(model.violations).as(describe(schedule, model)).isEmpty();
        });
        System.out.printf("[model] liveness: %d schedules, seed %d (%d left out: the clock of CDI or CNAO stepped back)%n",
                SCHEDULES, SEED + 1, excluded[0]);
    }

    /** The model can tell: schedules in which OLM really upgrades, and reads True, do occur. */
    @Test
    void theGeneratedSchedulesReachUpgradesSoTheInvariantIsExercised() {
        int[] upgrades = { 0 };
        int[] trueReads = { 0 };
        qt().withExamples(2_000).withFixedSeed(SEED + 2).forAll(schedules()).checkAssert(schedule -> {
            StackModel model = run(schedule);
            upgrades[0] += model.upgradesByOlm;
            trueReads[0] += model.trueReadsByOlm;
        });
        System.out.printf("[model] 2000 schedules: %d OLM upgrades, %d Upgradeable=True reads checked%n", upgrades[0],
                trueReads[0]);
        assertThat(upgrades[0]).isGreaterThan(100);
        // (about 1,100 while the model's components rewrote their heartbeats every second; since they
        // write only on change, fewer schedules reach an opening: 749 at this seed)
        assertThat(trueReads[0]).isGreaterThan(500);
    }

    /**
     * Sensitivity: with components' clocks up to 10 s off and the evidence rule weakened back to
     * "a heartbeat later than our spec write" (two clocks compared), the model finds OLM reading
     * Upgradeable=True while a component had not seen the current spec. It could not tell otherwise.
     */
    @Test
    void theModelFindsTheViolationsOfAClockBasedObservationRule() {
        int violating = schedulesViolating(() -> new StackModel(true, false), SEED + 3, v -> true);
        System.out.printf("[model] clock-based evidence: %d of %d schedules let OLM read True too early%n", violating,
                SCHEDULES * 4);
        assertThat(violating).isPositive();
    }

    /**
     * Sensitivity: with the old cleanup (component CRs deleted before any evaluation, so KubeVirt's
     * refusal left the earlier decision standing), the model finds OLM reading Upgradeable=True
     * after the leader had reconciled the HyperConverged's deletion.
     */
    @Test
    void theModelFindsTheStaleTrueOfACleanupThatDeletesBeforeItEvaluates() {
        int violating = schedulesViolating(() -> new StackModel(false, true), SEED + 4,
                v -> v.contains("reconciled the HyperConverged's deletion"));
        System.out.printf("[model] cleanup deleting before evaluating: %d of %d schedules let OLM read a stale True%n",
                violating, SCHEDULES * 4);
        assertThat(violating).isPositive();
    }

    /**
     * Sensitivity of the writer's record rule (issue #29, item 5). Renewing the "status at spec
     * write" record on every write, as before, waits for a status CDI never writes after a change of
     * what it does not render: the model finds schedules that never open. Keeping the record on
     * every write lets a status written before a change of what a component renders prove it: the
     * model finds OLM reading True too early.
     */
    @Test
    void theModelFindsTheStallOfAWriterThatRenewsTheRecordOnEveryWrite() {
        int stalled = schedulesNotSettling(() -> new StackModel(StackModel.WriterRule.RENEWS_ALWAYS), SEED + 5);
        System.out.printf("[model] record renewed on every write: %d of %d schedules never open%n", stalled,
                SCHEDULES * 4);
        assertThat(stalled).isPositive();
    }

    @Test
    void theModelFindsTheFalseTrueOfAWriterThatKeepsTheRecordOnEveryWrite() {
        int violating = schedulesViolating(() -> new StackModel(StackModel.WriterRule.KEEPS_ALWAYS), SEED + 6,
                v -> true);
        System.out.printf("[model] record kept on every write: %d of %d schedules let OLM read True too early%n",
                violating, SCHEDULES * 4);
        assertThat(violating).isPositive();
    }

    /**
     * Sensitivity of the confirmation (issue #30). Without it, a new leader whose caches lag behind
     * its predecessor's last spec writes opens on the older generation; reads sent ahead of the pass
     * that stand in whatever the caches hold do the same. The model finds both. With reads ahead as
     * shipped, openings confirmed by them occur in the generated schedules (printed), and the
     * safety test above holds.
     */
    @Test
    void theModelFindsTheFalseTrueOfAnOpeningThatIsNotConfirmed() {
        int violating = schedulesViolating(() -> new StackModel(StackModel.ConfirmationRule.NONE), SEED + 7, v -> true);
        System.out.printf("[model] no confirmation: %d of %d schedules let OLM read True too early%n", violating,
                SCHEDULES * 4);
        assertThat(violating).isPositive();
    }

    @Test
    void theModelFindsTheFalseTrueOfReadsAheadThatStandInWhateverTheCachesHold() {
        int violating = schedulesViolating(
                () -> new StackModel(StackModel.ConfirmationRule.AHEAD_WITHOUT_REVISION_CHECK), SEED + 8, v -> true);
        System.out.printf("[model] reads ahead without the revision check: %d of %d schedules let OLM read True too early%n",
                violating, SCHEDULES * 4);
        assertThat(violating).isPositive();
    }

    @Test
    void openingsConfirmedByReadsSentAheadOccurInTheGeneratedSchedules() {
        int[] ahead = { 0 };
        qt().withExamples(2_000).withFixedSeed(SEED + 2).forAll(schedules()).checkAssert(schedule -> {
            ahead[0] += run(schedule).openingsConfirmedAhead;
        });
        System.out.printf("[model] 2000 schedules: %d openings confirmed by reads sent ahead%n", ahead[0]);
        assertThat(ahead[0]).isGreaterThan(100);
    }

    /** How many of 4 × SCHEDULES schedules of a weakened model fail to open once everything settles. */
    private static int schedulesNotSettling(java.util.function.Supplier<StackModel> weakened, long seed) {
        int[] stalled = { 0 };
        qt().withExamples(SCHEDULES * 4).withFixedSeed(seed).forAll(schedules()).checkAssert(schedule -> {
            StackModel model = weakened.get();
            schedule.forEach(model::step);
            if (!model.clockSteppedBack && model.settle() != null) {
                stalled[0]++;
            }
        });
        return stalled[0];
    }

    /** How many of 4 × SCHEDULES schedules of a weakened model end with a violation the filter accepts. */
    private static int schedulesViolating(java.util.function.Supplier<StackModel> weakened, long seed,
            java.util.function.Predicate<String> counted) {
        int[] violating = { 0 };
        qt().withExamples(SCHEDULES * 4).withFixedSeed(seed).forAll(schedules()).checkAssert(schedule -> {
            StackModel model = weakened.get();
            schedule.forEach(model::step);
            if (model.violations.stream().anyMatch(counted)) {
                violating[0]++;
            }
        });
        return violating[0];
    }

    /** Both new behaviours occur in the generated schedules: leader changes, and deletions that are refused. */
    @Test
    void theGeneratedSchedulesChangeLeadersAndDeleteTheStack() {
        int[] leaderChanges = { 0 };
        int[] deletions = { 0 };
        qt().withExamples(2_000).withFixedSeed(SEED + 2).forAll(schedules()).checkAssert(schedule -> {
            StackModel model = run(schedule);
            leaderChanges[0] += (int) model.trace.stream().filter(t -> t.equals("the standby becomes leader")).count();
            deletions[0] += model.deleted() ? 1 : 0;
        });
        System.out.printf("[model] 2000 schedules: %d leader changes, %d with the HyperConverged deleted%n",
                leaderChanges[0], deletions[0]);
        assertThat(leaderChanges[0]).isGreaterThan(1000);
        assertThat(deletions[0]).isGreaterThan(100);
    }

    static StackModel run(List<Integer> schedule) {
        StackModel model = new StackModel();
        schedule.forEach(model::step);
        return model;
    }

    private static String describe(List<Integer> schedule, StackModel model) {
        return "schedule " + schedule + "\n" + model + "\ntrace " + model.trace;
    }
}
