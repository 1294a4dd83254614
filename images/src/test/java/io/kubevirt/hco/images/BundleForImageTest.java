package io.kubevirt.hco.images;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/** The bundle image's CSV: the operator image by digest everywhere it is named, nothing else changed. */
class BundleForImageTest {

    private static final Path ROOT = Path.of(System.getProperty("repository.root", "..")).toAbsolutePath().normalize();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void theCsvNamesTheImageByDigestAndKeepsEveryOtherValueAsItWas(@TempDir Path out) throws Exception {
        String image = "hco-operator@sha256:" + "a".repeat(64);
        Path bundle = BundleForImage.write(ROOT.resolve("bundle"), out.resolve("bundle"), image);
        Path name;
        try (var files = Files.list(ROOT.resolve("bundle/manifests"))) {
            name = files.filter(f -> f.toString().endsWith(".clusterserviceversion.yaml")).findFirst().orElseThrow()
                    .getFileName();
        }
        JsonNode before = YAML.readTree(ROOT.resolve("bundle/manifests").resolve(name).toFile());
        JsonNode after = YAML.readTree(bundle.resolve("manifests").resolve(name).toFile());
        String previous = before.path("metadata").path("annotations").path("containerImage").asText();
        assertThat(after.path("metadata").path("annotations").path("containerImage").asText()).isEqualTo(image);
        // the same document once the image is put back: types included (a string "10" stays a string)
        String restored = YAML.writeValueAsString(after).replace(image, previous);
        assertThat(YAML.readTree(restored)).isEqualTo(before);
        assertThat(YAML.writeValueAsString(after)).doesNotContain(previous);
    }
}
