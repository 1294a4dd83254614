package io.kubevirt.hco.core;

/**
 * Ordering of resourceVersions. Kubernetes calls them opaque, but every API server backed by etcd
 * issues increasing integers; anything unparsable is treated as "not provably newer" (fail closed).
 */
public final class ResourceVersions {

    private ResourceVersions() {
    }

    /** True only when {@code candidate} is provably at or after {@code reference}. */
    public static boolean atOrAfter(String candidate, String reference) {
        Long c = parse(candidate);
        Long r = parse(reference);
        return c != null && r != null && c >= r;
    }

    static Long parse(String resourceVersion) {
        if (resourceVersion == null || resourceVersion.isBlank()) {
            return null;
        }
        try {
            return Long.parseLong(resourceVersion.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
