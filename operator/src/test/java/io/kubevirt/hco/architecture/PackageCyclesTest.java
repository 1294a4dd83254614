package io.kubevirt.hco.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The operator's packages depend on each other without cycles, so that each reads as one layer of
 * the architecture (core below components and snapshot, those below gate and reconciler). Read from
 * the sources: an import or a qualified name of another package is a dependency.
 */
class PackageCyclesTest {

    static final Path SOURCES = Path.of("src/main/java");
    static final Pattern PACKAGE = Pattern.compile("^package (io\\.kubevirt\\.hco[\\w.]*);", Pattern.MULTILINE);
    static final Pattern REFERENCE = Pattern.compile("\\b(io\\.kubevirt\\.hco(?:\\.[a-z]\\w*)*)\\.[A-Z]");

    @Test
    void theOperatorsPackagesHaveNoCycle() throws IOException {
        Map<String, Set<String>> graph = dependencies();
        assertThat(graph).containsKeys("io.kubevirt.hco.core", "io.kubevirt.hco.gate", "io.kubevirt.hco.reconciler");
        assertThat(cycles(graph)).as("package cycles").isEmpty();
    }

    @Test
    void theCoreDependsOnNothingOfTheShell() throws IOException {
        assertThat(dependencies().getOrDefault("io.kubevirt.hco.core", Set.of())).isEmpty();
    }

    @Test
    void aCycleIsFound() {
        Map<String, Set<String>> graph = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a"));
        assertThat(cycles(graph)).containsExactly(new TreeSet<>(Set.of("a", "b", "c")));
    }

    static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String source = Files.readString(f);
                Matcher pkg = PACKAGE.matcher(source);
                if (!pkg.find()) {
                    continue;
                }
                Set<String> deps = graph.computeIfAbsent(pkg.group(1), k -> new TreeSet<>());
                Matcher ref = REFERENCE.matcher(source);
                while (ref.find()) {
                    if (!ref.group(1).equals(pkg.group(1))) {
                        deps.add(ref.group(1));
                    }
                }
            }
        }
        return graph;
    }

    /** The strongly connected components of more than one package (Tarjan). */
    static List<Set<String>> cycles(Map<String, Set<String>> graph) {
        List<Set<String>> out = new ArrayList<>();
        Map<String, Integer> index = new TreeMap<>();
        Map<String, Integer> low = new TreeMap<>();
        Deque<String> stack = new ArrayDeque<>();
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, out);
            }
        }
        return out;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, List<Set<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (stack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                out.add(component);
            }
        }
    }
}
