package io.kubevirt.hco.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The condition a write is sending counts as written while the write is in flight: its own watch
 * event, arriving before the answer, must not look like someone else's edit.
 */
class OperatorConditionInFlightTest {

    static final Map<String, Object> UPGRADEABLE = Map.of("type", "Upgradeable", "status", "False", "reason",
            "ComponentDegraded", "message", "KubeVirt: degraded");
    static final Map<String, Object> OTHER = Map.of("type", "Other", "status", "True");

    @Test
    void aChangeSetsTheConditionsList() {
        List<Map<String, Object>> ops = List.of(OperatorConditionWriter.op("test", "/spec/conditions", List.of(OTHER)),
                OperatorConditionWriter.op("replace", "/spec/conditions", List.of(OTHER, UPGRADEABLE)));
        assertThat(OperatorConditionWriter.upgradeableIn(ops)).isEqualTo(UPGRADEABLE);
    }

    @Test
    void aWriteToAnObjectWithoutSpecAddsTheSpec() {
        List<Map<String, Object>> ops = List.of(OperatorConditionWriter.op("test", "/metadata/resourceVersion", "7"),
                OperatorConditionWriter.op("add", "/spec", Map.of("conditions", List.of(UPGRADEABLE))));
        assertThat(OperatorConditionWriter.upgradeableIn(ops)).isEqualTo(UPGRADEABLE);
    }

    @Test
    void whatAPatchOnlyTestsIsNotBeingWritten() {
        List<Map<String, Object>> ops = List.of(OperatorConditionWriter.op("test", "/spec/conditions", List.of(UPGRADEABLE)),
                OperatorConditionWriter.op("replace", "/spec/conditions", List.of(OTHER)));
        assertThat(OperatorConditionWriter.upgradeableIn(ops)).isNull();
    }
}
