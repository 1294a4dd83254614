package io.kubevirt.hco.components;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The {@code hco.kubevirt.io/tuningPolicy} annotation's {"qps": N, "burst": M}, read when
 * tuningPolicy is {@code annotation}. A missing or malformed one is an error that names the fix:
 * KubeVirt is not given rate limits nobody asked for.
 */
record TuningAnnotation(double qps, int burst) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    static TuningAnnotation parse(String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidSpecException("tuningPolicy is 'annotation' but the HyperConverged has no "
                    + KubeVirtSpec.TUNING_POLICY_ANNOTATION + " annotation: add one like '{\"qps\": 100, \"burst\": 200}' "
                    + "or remove spec.tuningPolicy");
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new InvalidSpecException("the " + KubeVirtSpec.TUNING_POLICY_ANNOTATION + " annotation is not JSON ("
                    + e.getOriginalMessage() + "): write it like '{\"qps\": 100, \"burst\": 200}'");
        }
        double qps = node.path("qps").asDouble(0);
        int burst = node.path("burst").asInt(0);
        if (qps <= 0 || burst <= 0) {
            throw new InvalidSpecException("the " + KubeVirtSpec.TUNING_POLICY_ANNOTATION
                    + " annotation needs positive qps and burst, e.g. '{\"qps\": 100, \"burst\": 200}'");
        }
        return new TuningAnnotation(qps, burst);
    }
}
