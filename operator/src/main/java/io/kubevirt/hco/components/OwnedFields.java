package io.kubevirt.hco.components;

import java.util.Map;
import java.util.Objects;

/**
 * Compares a component spec with the fields this operator sets, and only those: the API server's
 * defaults and other writers' fields live next to ours and are none of our business. Lists are
 * compared whole (the component CRDs declare them atomic), objects field by field.
 */
public final class OwnedFields {

    private OwnedFields() {
    }

    /** Whether every field of {@code desired} is in {@code actual} with the same value. */
    public static boolean contained(Object desired, Object actual) {
        return firstDifference(desired, actual) == null;
    }

    /** The path (e.g. {@code .config.featureGates}) of the first field of {@code desired} that {@code actual} lacks or holds otherwise; null when none. */
    public static String firstDifference(Object desired, Object actual) {
        return difference(SpecJson.normalizeValue(desired), SpecJson.normalizeValue(actual), "");
    }

    private static String difference(Object want, Object have, String path) {
        if (want instanceof Map<?, ?> wantMap) {
            if (!(have instanceof Map<?, ?> haveMap)) {
                return path.isEmpty() ? "." : path;
            }
            for (Map.Entry<?, ?> e : wantMap.entrySet()) {
                String at = path + "." + e.getKey();
                if (!haveMap.containsKey(e.getKey())) {
                    return at;
                }
                String diff = difference(e.getValue(), haveMap.get(e.getKey()), at);
                if (diff != null) {
                    return diff;
                }
            }
            return null;
        }
        return Objects.equals(want, have) ? null : path;
    }
}
