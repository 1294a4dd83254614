package io.kubevirt.hco.components;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of a component spec that its status-writing operator renders into its operands. A
 * component proven only by "status written after our spec write" (CDI, cluster-network-addons)
 * writes its status when that part changes, because its operands roll; a change elsewhere (read
 * by another of its processes, or only on deletion) changes nothing it reports, so it writes
 * nothing, and waiting for a write would wait for good.
 */
public final class RenderedSpec {

    private RenderedSpec() {
    }

    /**
     * The fields of {@code spec} at {@code paths} (dotted, e.g. {@code config.logVerbosity}), nested
     * as in the spec; the whole spec when {@code paths} is null.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> of(Map<String, Object> spec, List<String> paths) {
        if (paths == null || spec == null) {
            return spec;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (String path : paths) {
            String[] keys = path.split("\\.");
            Object value = spec;
            for (String key : keys) {
                value = value instanceof Map<?, ?> m ? m.get(key) : null;
            }
            if (value == null) {
                continue;
            }
            Map<String, Object> at = out;
            for (int i = 0; i < keys.length - 1; i++) {
                at = (Map<String, Object>) at.computeIfAbsent(keys[i], k -> new LinkedHashMap<String, Object>());
            }
            at.put(keys[keys.length - 1], value);
        }
        return out;
    }
}
