package io.kubevirt.hco.components;

import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

/**
 * Specs are compared as the JSON the API server stores. Going through JSON text on both sides makes
 * the comparison independent of Java types (Integer vs Long, records vs maps).
 */
public final class SpecJson {

    /** Absent and null are the same in a spec: nulls are not written, so they are not compared either. */
    private static final ObjectMapper MAPPER = new ObjectMapper().setDefaultPropertyInclusion(
            com.fasterxml.jackson.annotation.JsonInclude.Value.construct(
                    com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL,
                    com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL));
    /**
     * Map keys in order: the same spec gives the same text. One writer for all (immutable, and it
     * shares the mapper's serializers; copying the mapper on each call rebuilt them: a reconcile
     * fingerprints a dozen specs and statuses).
     */
    private static final ObjectWriter CANONICAL = MAPPER.writer()
            .with(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private SpecJson() {
    }

    public static Map<String, Object> toMap(Object value) {
        return normalize(value);
    }

    public static Map<String, Object> normalize(Object value) {
        if (value == null) {
            return Map.of();
        }
        try {
            Map<String, Object> map = MAPPER.readValue(MAPPER.writeValueAsString(value), MAP);
            return map == null ? Map.of() : map;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot represent " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** Any JSON value (object, list, scalar) as Jackson reads it back from its text: numbers compare equal whatever their Java type. */
    public static Object normalizeValue(Object value) {
        if (value == null) {
            return null;
        }
        try {
            return MAPPER.readValue(MAPPER.writeValueAsString(value), Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot represent " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    public static boolean sameJson(Object a, Object b) {
        return normalize(a).equals(normalize(b));
    }

    /** A short, stable fingerprint of a spec, stored on the CR to tell our own changes from others'. */
    public static String fingerprint(Object spec) {
        try {
            byte[] canonical = CANONICAL.writeValueAsBytes(spec);
            var digest = java.security.MessageDigest.getInstance("SHA-256").digest(canonical);
            return java.util.HexFormat.of().formatHex(digest, 0, 12);
        } catch (JsonProcessingException | java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot fingerprint a spec", e);
        }
    }
}
