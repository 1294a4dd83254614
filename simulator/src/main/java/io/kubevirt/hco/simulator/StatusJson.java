package io.kubevirt.hco.simulator;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * JSON values compared as the API server stores them: numbers equal whatever their Java type, nulls
 * absent. Close to the operator's SpecJson on purpose and apart from it: the simulator plays the
 * component operators from upstream's behaviour and must not share code with the operator it checks.
 */
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

    /** A JSON patch (RFC 6902) that sets {@code status} whole: {@code add} replaces a member that exists. */
    static String replaceStatusPatch(Object status) {
        try {
            return MAPPER.writeValueAsString(java.util.List.of(
                    java.util.Map.of("op", "add", "path", "/status", "value", normalize(status))));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write a status patch", e);
        }
    }
}
