package io.kubevirt.hco.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The merge patch the simulated cluster-network-addons-operator sends for its status (RFC 7386). */
class StatusJsonTest {

    @Test
    void aKeyGoneSinceIsSentAsNullAndListsWhole() throws Exception {
        Map<String, Object> before = Map.of("observedVersion", "1.0.0", "targetVersion", "1.0.0",
                "conditions", List.of(Map.of("type", "Available", "status", "True")));
        Map<String, Object> after = Map.of("targetVersion", "2.0.0",
                "conditions", List.of(Map.of("type", "Available", "status", "True"),
                        Map.of("type", "Progressing", "status", "True")));

        Map<String, Object> expected = new java.util.HashMap<>(after);
        expected.put("observedVersion", null);
        assertThat(json(StatusJson.mergePatch(before, after))).isEqualTo(Map.of("status", expected));
    }

    @Test
    void nestedMapsArePatchedKeyByKeyAndAnUnchangedStatusPatchesNothing() throws Exception {
        Map<String, Object> before = Map.of("a", Map.of("x", 1, "y", 2));
        Map<String, Object> after = Map.of("a", Map.of("x", 1, "z", 3));

        Map<String, Object> a = new java.util.HashMap<>();
        a.put("y", null);
        a.put("z", 3);
        assertThat(json(StatusJson.mergePatch(before, after))).isEqualTo(Map.of("status", Map.of("a", a)));
        assertThat(json(StatusJson.mergePatch(after, after))).isEqualTo(Map.of("status", Map.of()));
    }

    @Test
    void aFirstStatusIsSentWhole() throws Exception {
        assertThat(json(StatusJson.mergePatch(null, Map.of("observedVersion", "1.0.0"))))
                .isEqualTo(Map.of("status", Map.of("observedVersion", "1.0.0")));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String s) throws Exception {
        return new com.fasterxml.jackson.databind.ObjectMapper().readValue(s, Map.class);
    }
}
