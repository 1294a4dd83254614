package io.kubevirt.hco.images;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * Dockerfile.native (for those with a container engine) and the Jib build (the project's own,
 * OperatorImages.nativeImage) must describe the same image: entrypoint, user, working directory,
 * ports, where the files go, the labels, and the base files made by the same script.
 */
class DockerfileRouteTest {

    private static final Path ROOT = Path.of(System.getProperty("repository.root", "..")).toAbsolutePath().normalize();

    @Test
    void dockerfileNativeDescribesTheImageTheJibBuildMakes() throws IOException {
        Map<String, List<String>> last = finalStage(Files.readString(ROOT.resolve("Dockerfile.native")));
        ImageRecipe recipe = OperatorImages.nativeImage("1.0.0", "unknown", Path.of("base"), Path.of("application"));

        assertThat(last.get("FROM")).containsExactly("scratch");
        assertThat(last.get("ENTRYPOINT")).containsExactly(jsonArray(recipe.entrypoint()));
        assertThat(last.get("USER")).containsExactly(recipe.user());
        assertThat(last.get("WORKDIR")).containsExactly(recipe.workingDirectory());
        assertThat(last.get("EXPOSE")).containsExactly(recipe.ports().stream().map(String::valueOf).reduce((a, b) -> a + " " + b)
                .orElseThrow());
        List<String> copied = new ArrayList<>();
        for (String copy : last.get("COPY")) {
            String[] words = copy.split("\\s+");
            copied.add(words[words.length - 1]);
        }
        List<String> layered = new ArrayList<>();
        recipe.layers().forEach(l -> l.entries().forEach(e -> layered.add(e.target())));
        assertThat(copied).containsExactlyElementsOf(layered);
        assertThat(last.get("COPY").get(1)).as("the executable is executable in both").contains("--chmod=0755");

        Map<String, String> labels = labels(String.join(" ", last.get("LABEL")));
        assertThat(labels.keySet()).containsExactlyInAnyOrderElementsOf(recipe.labels().keySet());
        for (String fixed : List.of("org.opencontainers.image.title", "org.opencontainers.image.description",
                "org.opencontainers.image.licenses", "org.opencontainers.image.vendor")) {
            assertThat(labels.get(fixed)).as(fixed).isEqualTo(recipe.labels().get(fixed));
        }
    }

    @Test
    void dockerfileJvmAndItsArchiveTrainingRunTheJitAndCollectorOfTheJvmImage() throws IOException {
        List<String> env = finalStage(Files.readString(ROOT.resolve("Dockerfile.jvm"))).get("ENV");
        String javaOpts = env.stream().filter(e -> e.startsWith("JAVA_OPTS_APPEND=")).findFirst().orElseThrow();
        String training = Files.readString(ROOT.resolve("packaging/jvm/train-appcds.sh"));
        String trainingJava = training.lines().filter(l -> l.contains("-XX:ArchiveClassesAtExit")).findFirst().orElseThrow();

        // an archive trained under other flags may not map, and the image would start without it
        assertThat(List.of(javaOpts.substring("JAVA_OPTS_APPEND=".length()).split("[\\s\"]+")))
                .containsAll(OperatorImages.JIT_AND_GC_FLAGS);
        assertThat(List.of(trainingJava.trim().split("\\s+"))).containsAll(OperatorImages.JIT_AND_GC_FLAGS);
    }

    @Test
    void bothRoutesTakeTheBaseFilesFromTheSameScript() throws IOException {
        String dockerfile = Files.readString(ROOT.resolve("Dockerfile.native"));
        assertThat(dockerfile).contains("COPY packaging/image/base-rootfs.sh /base-rootfs.sh")
                .contains("RUN bash /base-rootfs.sh /rootfs /application")
                .contains("COPY --from=base /rootfs/ /");
        assertThat(ROOT.resolve("packaging/image/base-rootfs.sh")).exists();
    }

    /** The instructions of the last stage (after its FROM), continuation lines joined, by keyword. */
    static Map<String, List<String>> finalStage(String dockerfile) {
        String joined = dockerfile.replaceAll("\\\\\\n", " ");
        Map<String, List<String>> stage = new LinkedHashMap<>();
        for (String line : joined.split("\\n")) {
            String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] parts = trimmed.split("\\s+", 2);
            String keyword = parts[0].toUpperCase();
            if (keyword.equals("FROM")) {
                stage.clear();
            }
            stage.computeIfAbsent(keyword, k -> new ArrayList<>()).add(parts.length > 1 ? parts[1].trim() : "");
        }
        return stage;
    }

    private static String jsonArray(List<String> values) {
        return "[" + String.join(", ", values.stream().map(v -> "\"" + v + "\"").toList()) + "]";
    }

    private static Map<String, String> labels(String instruction) {
        Map<String, String> labels = new LinkedHashMap<>();
        Matcher m = Pattern.compile("([\\w.\\-]+)=\"([^\"]*)\"").matcher(instruction);
        while (m.find()) {
            labels.put(m.group(1), m.group(2));
        }
        return labels;
    }
}
