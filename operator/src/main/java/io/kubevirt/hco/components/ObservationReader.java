package io.kubevirt.hco.components;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.kubevirt.hco.core.ComponentObservation;
import io.kubevirt.hco.core.Condition;

/**
 * Reads a component CR generically. Components are other teams' code: whatever shape their status
 * has, this never throws; anything it cannot read becomes {@link ComponentObservation#problem()},
 * which the gate treats as "not reporting".
 */
public final class ObservationReader {

    /**
     * Annotation carrying the fingerprint of the component's status as it stood when this operator
     * last wrote the spec: a different status now proves a status write after ours.
     */
    public static final String STATUS_AT_SPEC_WRITE = "hco.kubevirt.io/status-at-spec-write";
    /** The fingerprint of a CR that carries no status (yet). */
    public static final String NO_STATUS = "none";

    private ObservationReader() {
    }

    public static ComponentObservation read(ComponentDescriptor descriptor, GenericKubernetesResource cr) {
        if (cr == null) {
            return ComponentObservation.absent();
        }
        var meta = cr.getMetadata();
        String rv = meta == null ? null : meta.getResourceVersion();
        Long generation = meta == null ? null : meta.getGeneration();
        try {
            return readStatus(descriptor, cr.getAdditionalProperties().get("status"), rv, generation);
        } catch (Malformed e) {
            return new ComponentObservation(true, rv, generation, null, null, null, List.of(), null, null,
                    e.getMessage());
        } catch (RuntimeException e) {
            return new ComponentObservation(true, rv, generation, null, null, null, List.of(), null, null,
                    "unreadable status (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static ComponentObservation readStatus(ComponentDescriptor d, Object status, String rv, Long generation) {
        if (status == null) {
            return new ComponentObservation(true, rv, generation, null, null, null, List.of(), null, null, null);
        }
        if (!(status instanceof Map<?, ?> s)) {
            throw new Malformed("status is not an object");
        }
        Long observedGeneration = integer(s, "observedGeneration");
        String observed = string(s, d.observedVersionField());
        String target = d.targetVersionField() == null ? null : string(s, d.targetVersionField());
        Boolean paused = d.pausedField() == null ? null : bool(s, d.pausedField());
        return new ComponentObservation(true, rv, generation, observedGeneration, observed, target,
                conditions(s.get("conditions")), paused, null, null);
    }

    private static List<Condition> conditions(Object raw) {
        if (raw == null) {
            return List.of();
        }
        if (!(raw instanceof List<?> list)) {
            throw new Malformed("status.conditions is not a list");
        }
        List<Condition> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map<?, ?> c)) {
                throw new Malformed("status.conditions[" + i + "] is not an object");
            }
            String type = string(c, "type");
            if (type == null || type.isBlank()) {
                throw new Malformed("status.conditions[" + i + "] has no type");
            }
            if (!seen.add(type)) {
                throw new Malformed("condition " + type + " is reported twice");
            }
            String status = string(c, "status");
            Object heartbeat = c.get("lastHeartbeatTime");
            Instant beat = heartbeat == null ? null : parseTime(heartbeat instanceof String h ? h : null);
            if (heartbeat != null && beat == null) {
                throw new Malformed("condition " + type + " has an unparsable lastHeartbeatTime");
            }
            out.add(new Condition(type, status, string(c, "reason"), string(c, "message"),
                    integer(c, "observedGeneration"), beat));
        }
        return out;
    }

    private static String string(Map<?, ?> map, String key) {
        Object v = map.get(key);
        if (v == null || v instanceof String) {
            return (String) v;
        }
        throw new Malformed(key + " is not a string");
    }

    private static Long integer(Map<?, ?> map, String key) {
        Object v = map.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Integer || v instanceof Long) {
            return ((Number) v).longValue();
        }
        throw new Malformed(key + " is not an integer");
    }

    private static Boolean bool(Map<?, ?> map, String key) {
        Object v = map.get(key);
        if (v == null || v instanceof Boolean) {
            return (Boolean) v;
        }
        throw new Malformed(key + " is not a boolean");
    }

    /**
     * A short fingerprint of the CR's whole status (canonical JSON): any write that changed any of
     * it, a heartbeat included, changes the fingerprint. Never throws.
     */
    public static String statusFingerprint(GenericKubernetesResource cr) {
        Object status = cr == null ? null : cr.getAdditionalProperties().get("status");
        if (status == null) {
            return NO_STATUS;
        }
        try {
            String name = cr.getMetadata() == null ? null : cr.getMetadata().getName();
            return Fingerprints.of("status/" + cr.getKind() + "/" + name, status);
        } catch (RuntimeException e) {
            return "unreadable";
        }
    }

    static Instant parseTime(String value) {
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static final class Malformed extends RuntimeException {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }
}
