package io.kubevirt.hco.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabric8.zjsonpatch.JsonPatch;

/** The status patch the simulated cluster-network-addons-operator sends (its RBAC allows patch, not update). */
class StatusJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theStatusIsReplacedWholeSoKeysGoAndListsShrink() throws Exception {
        JsonNode cr = JSON.valueToTree(Map.of("metadata", Map.of("name", "cluster"), "status",
                Map.of("observedVersion", "1.0.0", "conditions", List.of(Map.of("type", "Available"),
                        Map.of("type", "Degraded")))));
        Map<String, Object> after = Map.of("targetVersion", "2.0.0", "conditions", List.of(Map.of("type", "Progressing")));

        JsonNode patched = JsonPatch.apply(JSON.readTree(StatusJson.replaceStatusPatch(after)), cr);

        assertThat(patched.get("status")).isEqualTo(JSON.valueToTree(after));
        assertThat(patched.get("metadata")).isEqualTo(cr.get("metadata"));
    }

    @Test
    void aFirstStatusIsAdded() throws Exception {
        JsonNode cr = JSON.valueToTree(Map.of("metadata", Map.of("name", "cluster")));

        JsonNode patched = JsonPatch.apply(JSON.readTree(StatusJson.replaceStatusPatch(Map.of("observedVersion", "1.0.0"))), cr);

        assertThat(patched.get("status")).isEqualTo(JSON.valueToTree(Map.of("observedVersion", "1.0.0")));
    }
}
