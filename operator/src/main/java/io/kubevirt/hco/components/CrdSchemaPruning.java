package io.kubevirt.hco.components;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Drops from a component spec the fields the installed CRD does not declare, before it is applied.
 * Server-side apply refuses a whole patch that carries one undeclared field ("field not declared in
 * schema", a 500, whatever the field validation): against a component CRD older than this
 * operator's mapping (a KubeVirt without {@code vmRolloutStrategy}) every write would fail and the
 * stack never converge. Pure: the schema is the CRD's openAPIV3Schema of {@code spec}, as JSON.
 */
public final class CrdSchemaPruning {

    private CrdSchemaPruning() {
    }

    /** The spec with only declared fields; the dropped ones' paths (e.g. {@code .configuration.vmRolloutStrategy}) are added to {@code dropped}. */
    public static Map<String, Object> prune(Map<String, Object> spec, Map<String, Object> schema, List<String> dropped) {
        if (schema == null) {
            return spec;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> out = (Map<String, Object>) prune(spec, schema, "", dropped);
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Object prune(Object value, Map<String, Object> schema, String path, List<String> dropped) {
        if (schema == null || Boolean.TRUE.equals(schema.get("x-kubernetes-preserve-unknown-fields"))) {
            return value;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> properties = (Map<String, Object>) schema.get("properties");
            Object additional = schema.get("additionalProperties");
            Map<String, Object> out = new LinkedHashMap<>();
            for (var e : ((Map<String, Object>) map).entrySet()) {
                String at = path + "." + e.getKey();
                if (properties != null && properties.containsKey(e.getKey())) {
                    out.put(e.getKey(), prune(e.getValue(), (Map<String, Object>) properties.get(e.getKey()), at, dropped));
                } else if (additional instanceof Map<?, ?> a) {
                    out.put(e.getKey(), prune(e.getValue(), (Map<String, Object>) a, at, dropped));
                } else if (Boolean.TRUE.equals(additional) || properties == null && additional == null
                        && !"object".equals(schema.get("type"))) {
                    out.put(e.getKey(), e.getValue());
                } else {
                    dropped.add(at);
                }
            }
            return out;
        }
        if (value instanceof List<?> list && schema.get("items") instanceof Map<?, ?> items) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                out.add(prune(list.get(i), (Map<String, Object>) items, path + "[" + i + "]", dropped));
            }
            return out;
        }
        return value;
    }
}
