package io.kubevirt.hco.core;

import java.time.Instant;
import java.util.Objects;

/**
 * A status condition as a component reported it, already parsed. {@code status} is kept as the
 * raw string so that anything but the exact literal "True"/"False" counts as unknown.
 */
public record Condition(String type, String status, String reason, String message, Long observedGeneration,
        Instant lastHeartbeatTime) {

    public static final String TRUE = "True";
    public static final String FALSE = "False";
    public static final String UNKNOWN = "Unknown";

    public Condition {
        Objects.requireNonNull(type, "type");
        status = status == null ? UNKNOWN : status;
    }

    public static Condition of(String type, String status) {
        return new Condition(type, status, null, null, null, null);
    }

    public boolean isTrue() {
        return TRUE.equals(status);
    }

    public boolean isFalse() {
        return FALSE.equals(status);
    }
}
