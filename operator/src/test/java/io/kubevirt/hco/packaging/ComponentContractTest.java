package io.kubevirt.hco.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.type.TypeReference;

import io.kubevirt.hco.Repo;

/**
 * The component half of the release is what {@link ComponentContractGenerator} derives from
 * upstream HCO v1.16.0: the committed files are regenerated and compared
 * ({@code -Dhco.regenerate=true} writes them instead).
 */
class ComponentContractTest {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    @Test
    void theCommittedReleaseFilesAreWhatTheGeneratorDerives() throws IOException {
        Map<String, String> generated = ComponentContractGenerator.generate(Repo.ROOT);
        boolean regenerate = Boolean.getBoolean("hco.regenerate");
        for (Map.Entry<String, String> f : generated.entrySet()) {
            Path file = Repo.path(f.getKey());
            if (regenerate) {
                Files.writeString(file, f.getValue());
            }
            assertEquals(f.getValue(), Files.readString(file),
                    f.getKey() + " is stale: run mvn -B test -pl operator -Dtest=ComponentContractTest -Dhco.regenerate=true");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theReleasePinsUpstreamV1160sVersionsAndEveryImageByDigest() throws IOException {
        Map<String, Object> release = BundleGenerator.YAML.readValue(Repo.path(ComponentContractGenerator.RELEASE).toFile(), MAP);
        Map<String, Map<String, Object>> components = (Map<String, Map<String, Object>>) release.get("components");
        assertEquals("v1.6.2", components.get("kubevirt").get("version"));
        assertEquals("v1.63.1", components.get("cdi").get("version"));
        assertEquals("v0.100.2", components.get("networkAddons").get("version"));
        assertEquals("v0.24.1", components.get("ssp").get("version"));
        List<Map<String, Object>> related = (List<Map<String, Object>>) release.get("relatedImages");
        for (Map<String, Object> c : components.values()) {
            assertTrue(related.stream().anyMatch(r -> r.get("image").equals(c.get("image"))), c.get("image") + " not related");
            for (Object operand : ((Map<String, Object>) c.get("operands")).values()) {
                assertTrue(related.stream().anyMatch(r -> r.get("image").equals(operand)), operand + " not related");
            }
        }
        // cdi-operator exits unless each of these is set (pkg/operator/resources/namespaced/factory.go)
        Map<String, Object> cdi = (Map<String, Object>) components.get("cdi").get("operands");
        for (String v : List.of("CONTROLLER_IMAGE", "IMPORTER_IMAGE", "CLONER_IMAGE", "OVIRT_POPULATOR_IMAGE",
                "APISERVER_IMAGE", "UPLOAD_PROXY_IMAGE", "UPLOAD_SERVER_IMAGE")) {
            assertTrue(((String) cdi.get(v)).contains("@sha256:"), v);
        }
        Map<String, Object> virt = (Map<String, Object>) components.get("kubevirt").get("operands");
        for (String v : List.of("VIRT_API_IMAGE", "VIRT_CONTROLLER_IMAGE", "VIRT_HANDLER_IMAGE", "VIRT_LAUNCHER_IMAGE")) {
            assertTrue(((String) virt.get(v)).contains("@sha256:"), v);
        }
    }

    @Test
    void anOperatorImageThatDisagreesWithImagesCsvIsRefused() throws IOException {
        Path source = Repo.path("packaging/upstream/v1.16.0");
        Map<String, Object> selection = BundleGenerator.YAML.readValue(Repo.path("packaging/components/components.yaml").toFile(), MAP);
        String images = Files.readString(source.resolve("images.csv")).replace(
                "CDI_OPERATOR_IMAGE,quay.io/kubevirt/cdi-operator,CDI_VERSION,8b",
                "CDI_OPERATOR_IMAGE,quay.io/kubevirt/cdi-operator,CDI_VERSION,9b");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ComponentContractGenerator.generate(
                selection, Files.readString(source.resolve((String) selection.get("csv"))), images,
                Files.readString(source.resolve("hack-config.txt")), ""));
        assertTrue(e.getMessage().contains("cdi") && e.getMessage().contains("images.csv pins"), e.getMessage());
    }

    @Test
    void aVersionThatDisagreesWithHackConfigIsRefused() throws IOException {
        Path source = Repo.path("packaging/upstream/v1.16.0");
        Map<String, Object> selection = BundleGenerator.YAML.readValue(Repo.path("packaging/components/components.yaml").toFile(), MAP);
        String config = Files.readString(source.resolve("hack-config.txt")).replace("SSP_VERSION=\"v0.24.1\"",
                "SSP_VERSION=\"v0.24.2\"");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ComponentContractGenerator.generate(
                selection, Files.readString(source.resolve((String) selection.get("csv"))),
                Files.readString(source.resolve("images.csv")), config, ""));
        assertTrue(e.getMessage().contains("hack-config.txt says v0.24.2"), e.getMessage());
    }
}
