package io.kubevirt.hco.components;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;

/**
 * Upstream's escape hatch: a JSON patch (RFC 6902) in an annotation of the HyperConverged, applied
 * to the component CR this operator derives ({@code {"spec": ...}}, paths like
 * {@code /spec/configuration/...}). Beyond upstream, a patch is validated before it is used: one
 * that is not a JSON array of operations, that does not apply, or that reaches outside
 * {@code /spec} or into a field the gate depends on is refused with a message saying which
 * operation and why; the component CR is then left as it is.
 */
public final class JsonPatches {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonPatches() {
    }

    /** The derived spec with the component's patch applied; unchanged when the annotation is absent. */
    static Map<String, Object> apply(ComponentDescriptor d, Map<String, Object> spec, Map<String, String> annotations) {
        String text = annotations.get(d.jsonPatchAnnotation());
        if (text == null) {
            return spec;
        }
        JsonNode patch = parse(d, text);
        for (JsonNode op : patch) {
            checkPath(d, op, "path");
            if (op.has("from")) {
                checkPath(d, op, "from");
            }
        }
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("spec", spec);
        try {
            JsonNode patched = JsonPatch.apply(patch, MAPPER.valueToTree(object));
            return SpecJson.toMap(MAPPER.convertValue(patched.path("spec"), Map.class));
        } catch (JsonPatchException | IllegalArgumentException e) {
            throw new InvalidSpecException("the " + d.jsonPatchAnnotation() + " annotation does not apply to the "
                    + d.kind() + " spec: " + e.getMessage() + "; fix or remove the annotation");
        }
    }

    /** How many operations each present patch annotation holds (0 for one that is not a JSON array): upstream's metric. */
    public static Map<String, Integer> operationCounts(List<ComponentDescriptor> components, Map<String, String> annotations) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (ComponentDescriptor d : components) {
            String text = annotations == null ? null : annotations.get(d.jsonPatchAnnotation());
            if (text == null) {
                continue;
            }
            try {
                JsonNode node = MAPPER.readTree(text);
                out.put(d.jsonPatchAnnotation(), node != null && node.isArray() ? node.size() : 0);
            } catch (JsonProcessingException e) {
                out.put(d.jsonPatchAnnotation(), 0);
            }
        }
        return out;
    }

    private static JsonNode parse(ComponentDescriptor d, String text) {
        JsonNode patch;
        try {
            patch = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new InvalidSpecException("the " + d.jsonPatchAnnotation() + " annotation is not JSON ("
                    + e.getOriginalMessage() + "): it must be a JSON patch, e.g. "
                    + "'[{\"op\": \"add\", \"path\": \"/spec/...\", \"value\": ...}]'");
        }
        if (patch == null || !patch.isArray()) {
            throw new InvalidSpecException("the " + d.jsonPatchAnnotation() + " annotation must be a JSON array of "
                    + "patch operations, e.g. '[{\"op\": \"add\", \"path\": \"/spec/...\", \"value\": ...}]'");
        }
        return patch;
    }

    private static void checkPath(ComponentDescriptor d, JsonNode op, String field) {
        String path = op.path(field).asText(null);
        if (path == null || !path.startsWith("/spec/")) {
            throw new InvalidSpecException("the " + d.jsonPatchAnnotation() + " annotation may only change fields under "
                    + "/spec/ of the " + d.kind() + ", but an operation has " + field + " '" + path + "'");
        }
        for (String guarded : d.gateSpecFields()) {
            String prefix = "/spec/" + guarded;
            if (path.equals(prefix) || path.startsWith(prefix + "/")) {
                throw new InvalidSpecException("the " + d.jsonPatchAnnotation() + " annotation may not change "
                        + path + ": the upgrade gate depends on it (it decides which version the " + d.kind()
                        + " runs); remove that operation");
            }
        }
    }
}
