package io.kubevirt.hco.simulator;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** JSON values compared as the API server stores them: numbers equal whatever their Java type, nulls absent. */
final class StatusJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setDefaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL,
                    JsonInclude.Include.NON_NULL));
    private static final ObjectMapper CANONICAL = MAPPER.copy()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private StatusJson() {
    }

    static Object normalize(Object value) {
        if (value == null) {
            return null;
        }
        try {
            return MAPPER.readValue(MAPPER.writeValueAsString(value), Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot represent " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    static boolean same(Object a, Object b) {
        return java.util.Objects.equals(normalize(a), normalize(b));
    }

    /** A short, stable fingerprint of a spec: what a component looked at. */
    static String fingerprint(Object value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(CANONICAL.writeValueAsBytes(normalize(value)));
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot fingerprint a spec", e);
        }
    }

    private static final ObjectMapper WITH_NULLS = new ObjectMapper();

    /**
     * A JSON merge patch (RFC 7386) that turns status {@code before} into {@code after}: what
     * controller-runtime's {@code MergeFrom} sends. Keys gone since are sent as null, lists whole.
     */
    static String mergePatch(Object before, Object after) {
        try {
            return WITH_NULLS.writeValueAsString(java.util.Map.of("status", diff(normalize(before), normalize(after))));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write a status patch", e);
        }
    }

    private static Object diff(Object before, Object after) {
        if (!(before instanceof java.util.Map<?, ?> old) || !(after instanceof java.util.Map<?, ?> now)) {
            return after;
        }
        java.util.Map<Object, Object> patch = new java.util.LinkedHashMap<>();
        old.keySet().stream().filter(k -> !now.containsKey(k)).forEach(k -> patch.put(k, null));
        now.forEach((k, v) -> {
            if (!java.util.Objects.equals(old.get(k), v)) {
                patch.put(k, diff(old.get(k), v));
            }
        });
        return patch;
    }
}
