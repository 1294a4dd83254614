package io.kubevirt.hco.components;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A component spec (or part of one) built as the JSON the API server stores. A field that is null,
 * an empty list or an empty object is not written, as upstream's Go structs omit them; an empty
 * object that means something ({@code multus: {}} deploys Multus) is written with {@link #putEmpty}.
 */
final class Fields {

    private final Map<String, Object> map = new LinkedHashMap<>();

    static Fields object() {
        return new Fields();
    }

    Fields put(String key, Object value) {
        Object v = value instanceof Fields f ? f.map : value;
        if (v == null || v instanceof Map<?, ?> m && m.isEmpty() || v instanceof Collection<?> c && c.isEmpty()) {
            return this;
        }
        map.put(key, v);
        return this;
    }

    Fields putEmpty(String key) {
        map.put(key, new LinkedHashMap<>());
        return this;
    }

    Map<String, Object> map() {
        return map;
    }
}
