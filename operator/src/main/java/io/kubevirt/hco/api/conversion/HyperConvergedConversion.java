package io.kubevirt.hco.api.conversion;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Converts a HyperConverged between v1beta1 (stored) and v1 (served), losslessly: every field is
 * moved by {@link FieldMoves}, feature gates turn between v1beta1's map of booleans and v1's list
 * of {name, enabled}, and whatever one version cannot hold (v1beta1's deprecated fields in v1,
 * v1's new fields in v1beta1) travels in an annotation of the other and comes back from it. Pure:
 * JSON-shaped maps in, JSON-shaped maps out; the webhook is a thin shell around it.
 */
public final class HyperConvergedConversion {

    public static final String GROUP = "hco.kubevirt.io";
    public static final String V1BETA1 = GROUP + "/v1beta1";
    public static final String V1 = GROUP + "/v1";
    /** On a v1 object: the v1beta1 fields v1 has no place for (JSON). */
    public static final String V1BETA1_ONLY = "hco.kubevirt.io/v1beta1-only-fields";
    /** On a v1beta1 object: the v1 fields v1beta1 has no place for (JSON). */
    public static final String V1_ONLY = "hco.kubevirt.io/v1-only-fields";

    private static final ObjectMapper JSON = new ObjectMapper();

    private HyperConvergedConversion() {
    }

    /** The object in {@code desiredApiVersion}; an object already in it is returned as it is. */
    public static Map<String, Object> convert(Map<String, Object> object, String desiredApiVersion) {
        String from = (String) object.get("apiVersion");
        if (desiredApiVersion.equals(from)) {
            return object;
        }
        if (!List.of(V1BETA1, V1).contains(desiredApiVersion) || !List.of(V1BETA1, V1).contains(from)) {
            throw new IllegalArgumentException("cannot convert a HyperConverged from " + from + " to " + desiredApiVersion
                    + ": only " + V1BETA1 + " and " + V1 + " exist");
        }
        Map<String, Object> out = deepCopy(object);
        out.put("apiVersion", desiredApiVersion);
        Map<String, Object> metadata = child(out, "metadata");
        Map<String, Object> spec = out.get("spec") instanceof Map<?, ?> ? child(out, "spec") : new LinkedHashMap<>();
        Map<String, Object> converted = V1.equals(desiredApiVersion) ? toV1(spec, metadata) : toV1beta1(spec, metadata);
        out.put("spec", converted);
        if (metadata.get("annotations") instanceof Map<?, ?> a && a.isEmpty()) {
            metadata.remove("annotations");
        }
        return out;
    }

    private static Map<String, Object> toV1(Map<String, Object> source, Map<String, Object> metadata) {
        Map<String, Object> target = restored(metadata, V1_ONLY);
        List<String> emptyBefore = emptyObjects(source, "");
        for (FieldMoves.Move m : FieldMoves.TABLE) {
            move(source, m.v1beta1(), target, m.v1(), m.negated());
        }
        if (source.get("featureGates") instanceof Map<?, ?> gates) {
            List<Object> list = new ArrayList<>();
            gates.forEach((name, value) -> {
                if (value instanceof Boolean b) {
                    Map<String, Object> gate = new LinkedHashMap<>();
                    gate.put("name", name);
                    if (!b) {
                        gate.put("enabled", "False");
                    }
                    list.add(gate);
                }
            });
            source.remove("featureGates");
            if (!list.isEmpty()) {
                target.put("featureGates", list);
            }
        }
        keepLeftovers(source, emptyBefore, metadata, V1BETA1_ONLY);
        return target;
    }

    private static Map<String, Object> toV1beta1(Map<String, Object> source, Map<String, Object> metadata) {
        Map<String, Object> target = restored(metadata, V1BETA1_ONLY);
        List<String> emptyBefore = emptyObjects(source, "");
        if (source.get("featureGates") instanceof List<?> list) {
            Map<String, Object> gates = target.get("featureGates") instanceof Map<?, ?> ? child(target, "featureGates")
                    : new LinkedHashMap<>();
            List<Object> unknown = new ArrayList<>();
            for (Object item : list) {
                if (item instanceof Map<?, ?> gate && gate.get("name") instanceof String name) {
                    gates.put(name, !"False".equals(gate.get("enabled")));
                } else {
                    unknown.add(item);
                }
            }
            source.remove("featureGates");
            if (!unknown.isEmpty()) {
                source.put("featureGates", unknown);
            }
            if (!gates.isEmpty()) {
                target.put("featureGates", gates);
            }
        }
        List<FieldMoves.Move> reversed = new ArrayList<>(FieldMoves.TABLE);
        java.util.Collections.reverse(reversed);
        for (FieldMoves.Move m : reversed) {
            move(source, m.v1(), target, m.v1beta1(), m.negated());
        }
        keepLeftovers(source, emptyBefore, metadata, V1_ONLY);
        return target;
    }

    /** The fields the other version parked in our annotation, as the start of the converted spec. */
    private static Map<String, Object> restored(Map<String, Object> metadata, String annotation) {
        Map<String, Object> annotations = metadata.get("annotations") instanceof Map<?, ?> ? child(metadata, "annotations")
                : null;
        Object parked = annotations == null ? null : annotations.remove(annotation);
        if (parked instanceof String text) {
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> fields = JSON.readValue(text, LinkedHashMap.class);
                return fields;
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("the " + annotation + " annotation is not the JSON object this "
                        + "conversion wrote: " + e.getOriginalMessage());
            }
        }
        return new LinkedHashMap<>();
    }

    /**
     * What no move took is parked in an annotation: fields the other version lacks, and empty
     * objects the user wrote (infra: {}), but not the ones the moves emptied.
     */
    private static void keepLeftovers(Map<String, Object> source, List<String> emptyBefore, Map<String, Object> metadata,
            String annotation) {
        pruneEmpty(source, emptyBefore, "");
        if (source.isEmpty()) {
            return;
        }
        Map<String, Object> annotations = metadata.get("annotations") instanceof Map<?, ?> ? child(metadata, "annotations")
                : new LinkedHashMap<>();
        try {
            annotations.put(annotation, JSON.writeValueAsString(source));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        metadata.put("annotations", annotations);
    }

    private static void move(Map<String, Object> source, String from, Map<String, Object> target, String to,
            boolean negated) {
        String[] path = from.split("\\.");
        Map<String, Object> parent = source;
        for (int i = 0; i < path.length - 1; i++) {
            if (!(parent.get(path[i]) instanceof Map<?, ?>)) {
                return;
            }
            parent = child(parent, path[i]);
        }
        Object value = parent.get(path[path.length - 1]);
        // an object the moves emptied (or the user left empty) stays for the leftovers, not moved
        if (value == null || value instanceof Map<?, ?> m && m.isEmpty() || negated && !(value instanceof Boolean)) {
            return;
        }
        parent.remove(path[path.length - 1]);
        if (negated) {
            value = !(Boolean) value;
        }
        String[] dest = to.split("\\.");
        Map<String, Object> at = target;
        for (int i = 0; i < dest.length - 1; i++) {
            if (!(at.get(dest[i]) instanceof Map<?, ?>)) {
                at.put(dest[i], new LinkedHashMap<String, Object>());
            }
            at = child(at, dest[i]);
        }
        String last = dest[dest.length - 1];
        if (at.get(last) instanceof Map<?, ?> existing && value instanceof Map<?, ?> incoming) {
            // a child moved in before its parent (converting back): merge, the child's field stays
            @SuppressWarnings("unchecked")
            Map<String, Object> merged = new LinkedHashMap<>((Map<String, Object>) incoming);
            existing.forEach((k, v) -> merged.put((String) k, v));
            at.put(last, merged);
        } else {
            at.put(last, value);
        }
    }

    private static void pruneEmpty(Map<String, Object> map, List<String> keep, String at) {
        Iterator<Map.Entry<String, Object>> it = map.entrySet().iterator();
        while (it.hasNext()) {
            var e = it.next();
            if (e.getValue() instanceof Map<?, ?> m) {
                @SuppressWarnings("unchecked")
                Map<String, Object> nested = (Map<String, Object>) m;
                String path = at + "." + e.getKey();
                pruneEmpty(nested, keep, path);
                if (nested.isEmpty() && !keep.contains(path)) {
                    it.remove();
                }
            }
        }
    }

    private static List<String> emptyObjects(Map<String, Object> map, String at) {
        List<String> out = new ArrayList<>();
        map.forEach((k, v) -> {
            if (v instanceof Map<?, ?> m) {
                if (m.isEmpty()) {
                    out.add(at + "." + k);
                } else {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> nested = (Map<String, Object>) m;
                    out.addAll(emptyObjects(nested, at + "." + k));
                }
            }
        });
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> child(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        if (value instanceof Map<?, ?> m && !(m instanceof LinkedHashMap<?, ?>)) {
            value = new LinkedHashMap<>((Map<String, Object>) m);
            parent.put(key, value);
        }
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> deepCopy(Map<String, Object> object) {
        return JSON.convertValue(object, LinkedHashMap.class);
    }
}
