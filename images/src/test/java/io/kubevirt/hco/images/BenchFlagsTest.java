package io.kubevirt.hco.images;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * The bench's memory and CPU figures are the images' only if it runs the operator with their flags
 * and in their memory limit: both runtimes size the heap from the container's limit, and RSS
 * follows the heap (bench at -Xmx256m on a 23 GB machine: 241 MB; as the JVM image runs in the
 * chart's 512Mi: 172 MB). The pom's defaults are text Maven cannot derive from OperatorImages.
 */
class BenchFlagsTest {

    private static final Path ROOT = Path.of(System.getProperty("repository.root", "..")).toAbsolutePath().normalize();

    @Test
    void theBenchRunsTheOperatorWithTheImagesFlagsInTheChartsMemoryLimit() throws IOException {
        String pom = Files.readString(ROOT.resolve("operator/pom.xml"));
        List<String> jvm = List.of(property(pom, "bench.jvm-flags").split("\\s+"));
        List<String> nativeFlags = List.of(property(pom, "bench.native-flags").split("\\s+"));
        String limit = "-XX:MaxRAM=" + chartMemoryLimitMi() + "m";

        assertThat(jvm).containsAll(OperatorImages.JVM_FLAGS.stream().filter(f -> f.startsWith("-XX:")).toList())
                .contains(limit).noneMatch(f -> f.startsWith("-Xmx") || f.startsWith("-Xms") || f.startsWith("-Xmn"));
        // the native image's entrypoint has no flags: its heap defaults are built in
        assertThat(nativeFlags).containsExactly(limit);
    }

    private static String property(String pom, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]*)</" + Pattern.quote(name) + ">").matcher(pom);
        assertThat(m.find()).as(name + " in operator/pom.xml").isTrue();
        return m.group(1).trim();
    }

    private static int chartMemoryLimitMi() throws IOException {
        JsonNode values = new ObjectMapper(new YAMLFactory()).readTree(ROOT.resolve("helm/hco-operator/values.yaml").toFile());
        String limit = values.path("resources").path("limits").path("memory").asText();
        assertThat(limit).as("resources.limits.memory in the chart's values, in Mi").matches("\\d+Mi");
        return Integer.parseInt(limit.substring(0, limit.length() - 2));
    }
}
