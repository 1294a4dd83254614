package io.kubevirt.hco.components;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Fingerprints are stored on component CRs (annotations): a new way of computing one must give the
 * very same text, or every CR of an upgraded operator would look changed and be written again.
 */
class SpecJsonTest {

    @Test
    void aFingerprintIsTheSameWhateverTheOrderOfTheMapsKeys() {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("b", List.of(Map.of("y", 2, "x", 1)));
        a.put("a", "first");
        a.put("n", null);
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("a", "first");
        b.put("b", List.of(new java.util.TreeMap<>(Map.of("x", 1, "y", 2))));
        assertThat(SpecJson.fingerprint(a)).isEqualTo(SpecJson.fingerprint(b));
    }

    @Test
    void aFingerprintIsTheFirstTwelveBytesOfTheSha256OfTheCanonicalJson() throws Exception {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("workloads", Map.of("nodePlacement", Map.of("nodeSelector", Map.of("zone", "a"))));
        spec.put("configuration", Map.of("developerConfiguration", Map.of("featureGates", List.of("Snapshot", "HotplugVolumes"))));
        spec.put("ignored", null);
        String canonical = "{\"configuration\":{\"developerConfiguration\":{\"featureGates\":[\"Snapshot\",\"HotplugVolumes\"]}},"
                + "\"workloads\":{\"nodePlacement\":{\"nodeSelector\":{\"zone\":\"a\"}}}}";
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                .digest(canonical.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(SpecJson.fingerprint(spec)).isEqualTo(java.util.HexFormat.of().formatHex(digest, 0, 12));
    }
}
