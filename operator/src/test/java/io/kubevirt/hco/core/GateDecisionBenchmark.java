package io.kubevirt.hco.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The pure gate decision (assessment + stabilization) over a snapshot of n component descriptors,
 * half judged by observedGeneration and half by heartbeat, every one converged except the last,
 * which is degraded: the decision has to look at every component. Run by the bench command.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class GateDecisionBenchmark {

    @Param({ "4", "50", "500" })
    public int components;

    private GateInput input;

    @Setup
    public void snapshot() {
        List<GateInput.Component> list = new ArrayList<>();
        for (int i = 0; i < components; i++) {
            list.add(i % 2 == 0 ? Stacks.generationComponent("c" + i) : Stacks.statusWriteComponent("c" + i));
        }
        GateInput.Component last = list.get(components - 1);
        list.set(components - 1, new GateInput.Component(last.expectation(), Stacks.withConditions(last.observation(),
                List.of(new Condition("Degraded", "True", "PodsCrashLooping", "", null, Stacks.NOW.minusSeconds(1))))));
        input = new GateInput(Stacks.NOW, Stacks.V1, true, true, Stacks.hco(Stacks.V1), list, null);
    }

    @Benchmark
    public GateDecision decide() {
        return Stabilizer.decide(GateEvaluator.assess(input), Stacks.NOW.minusSeconds(30), Duration.ofSeconds(5),
                Stacks.NOW);
    }
}
