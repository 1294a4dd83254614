package io.kubevirt.hco.components;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * {@link SpecJson#fingerprint} of values that nobody modifies once made, remembered by identity,
 * the last one per slot: a desired spec (SpecApplication hands out the same map while the
 * HyperConverged is unchanged) and the status of a CR as a cache or a read returned it. A pass
 * fingerprints every component's desired spec and status several times, and nearly all of them
 * are the very objects of the pass before (canonical JSON and a SHA-256 each time, before).
 */
public final class Fingerprints {

    private record Last(Object key, String fingerprint) {
    }

    private static final Map<String, Last> LAST = new ConcurrentHashMap<>();

    private Fingerprints() {
    }

    /** The fingerprint of a component's desired spec: one slot per component, shared by every caller. */
    public static String ofDesired(ComponentDescriptor d, Map<String, Object> desired) {
        return of("spec/" + d.name(), desired);
    }

    /** The fingerprint of {@code value}, taken once while the same object comes back in this slot. */
    public static String of(String slot, Object value) {
        return of(slot, value, () -> value);
    }

    /** The fingerprint of what {@code derived} makes of {@code key}, taken once while the same key comes back. */
    public static String of(String slot, Object key, Supplier<Object> derived) {
        Last last = LAST.get(slot);
        if (last != null && last.key() == key) {
            return last.fingerprint();
        }
        String fingerprint = SpecJson.fingerprint(derived.get());
        LAST.put(slot, new Last(key, fingerprint));
        return fingerprint;
    }
}
