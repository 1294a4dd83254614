package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;

/**
 * What production runs (the packaged application every image is built from) carries no simulator:
 * the simulated component operators are an optional dependency, for dev mode, the demo and the
 * tests only.
 */
class PackagedApplicationIT {

    static final Path APP = Path.of("target/quarkus-app");

    @Test
    void theProductionApplicationCarriesNoSimulator() throws Exception {
        List<String> simulatorEntries = new ArrayList<>();
        List<Path> jars;
        try (Stream<Path> files = Files.walk(APP)) {
            jars = files.filter(f -> f.toString().endsWith(".jar")).toList();
        }
        assertThat(jars).as("the packaged application").isNotEmpty();
        for (Path jar : jars) {
            assertThat(jar.getFileName().toString()).as("a simulator jar in " + APP).doesNotContain("simulator");
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                zip.stream().map(e -> e.getName())
                        .filter(n -> n.startsWith("io/kubevirt/hco/simulator/") || n.startsWith("component-crds/"))
                        .forEach(n -> simulatorEntries.add(jar.getFileName() + "!" + n));
            }
        }
        assertThat(simulatorEntries).as("simulator classes or resources in the packaged application").isEmpty();
    }
}
