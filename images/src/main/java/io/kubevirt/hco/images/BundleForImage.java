package io.kubevirt.hco.images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

/**
 * The bundle as the bundle image carries it: the repository's bundle/ with the operator's image
 * named by digest wherever the CSV names it (the deployment's container, the containerImage
 * annotation, relatedImages), so that what OLM deploys is exactly the image that was built.
 */
final class BundleForImage {

    // every string quoted: with minimized quotes a string such as "10" (an env value, an argument)
    // came out as an integer, and the API server refused the CSV (RealOlmIT found it)
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));

    private BundleForImage() {
    }

    /** Copies {@code bundle} to {@code out}, the CSV's operator image {@code operatorImage} by digest. */
    static Path write(Path bundle, Path out, String operatorImage) throws IOException {
        BuildHost.deleteRecursively(out);
        try (var walk = Files.walk(bundle)) {
            for (Path p : walk.sorted().toList()) {
                Path to = out.resolve(bundle.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        Path csv;
        try (var list = Files.list(out.resolve("manifests"))) {
            csv = list.filter(p -> p.getFileName().toString().endsWith(".clusterserviceversion.yaml")).findFirst()
                    .orElseThrow(() -> new IOException(bundle + "/manifests has no ClusterServiceVersion"));
        }
        JsonNode root = YAML.readTree(csv.toFile());
        String previous = root.path("metadata").path("annotations").path("containerImage").asText();
        if (previous.isEmpty()) {
            throw new IOException(csv + ": no containerImage annotation names the operator's image");
        }
        ((ObjectNode) root.path("metadata").path("annotations")).put("containerImage", operatorImage);
        int replaced = 0;
        for (JsonNode deployment : root.path("spec").path("install").path("spec").path("deployments")) {
            for (JsonNode container : deployment.path("spec").path("template").path("spec").path("containers")) {
                if (previous.equals(container.path("image").asText())) {
                    ((ObjectNode) container).put("image", operatorImage);
                    replaced++;
                }
            }
        }
        for (JsonNode related : root.path("spec").path("relatedImages")) {
            if (previous.equals(related.path("image").asText())) {
                ((ObjectNode) related).put("image", operatorImage);
            }
        }
        if (replaced == 0) {
            throw new IOException(csv + ": no deployment runs " + previous + " (the containerImage annotation)");
        }
        YAML.writeValue(csv.toFile(), root);
        return out;
    }

    /** The bundle's labels: its metadata/annotations.yaml, which bundle.Dockerfile repeats as LABELs. */
    static Map<String, String> labels(Path bundle) throws IOException {
        Map<String, String> labels = new LinkedHashMap<>();
        YAML.readTree(bundle.resolve("metadata/annotations.yaml").toFile()).path("annotations").fields()
                .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        return labels;
    }
}
