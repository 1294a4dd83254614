package io.kubevirt.hco.bench;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import io.kubevirt.hco.core.GateDecisionBenchmark;

/** Runs the JMH benchmark of the pure gate decision; µs per decision by number of components. */
final class CoreBenchmark {

    private CoreBenchmark() {
    }

    static Map<String, Double> run() throws Exception {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(GateDecisionBenchmark.class.getName())
                .forks(1).warmupIterations(3).warmupTime(TimeValue.seconds(1))
                .measurementIterations(5).measurementTime(TimeValue.seconds(1))
                .build()).run();
        Map<String, Double> scores = new LinkedHashMap<>();
        for (RunResult r : results) {
            scores.put(r.getParams().getParam("components"), r.getPrimaryResult().getScore());
        }
        return scores;
    }
}
