package io.kubevirt.hco.components;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;

/**
 * The upstream fields this operator accepts (so nothing an upstream user wrote is pruned) but does
 * not apply yet, and why. A HyperConverged that sets one of them away from its default is told so
 * by a status condition; the README's API coverage table lists them.
 */
public final class UnappliedFields {

    /** Field → why it is not applied. */
    public static final Map<String, String> FIELDS;
    static {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("localStorageClassName", "deprecated upstream, ignored there too");
        f.put("vddkInitImage", "deprecated upstream; upstream writes it to a ConfigMap for the Migration Toolkit, not to a component");
        f.put("tektonPipelinesNamespace", "deprecated upstream, ignored there too");
        f.put("tektonTasksNamespace", "deprecated upstream, ignored there too");
        f.put("commonBootImageNamespace", "no common golden images are shipped yet");
        f.put("enableCommonBootImageImport", "no common golden images are shipped yet (custom dataImportCronTemplates are applied)");
        f.put("applicationAwareConfig", "Application Aware Quota is not deployed by this operator");
        f.put("enableApplicationAwareQuota", "Application Aware Quota is not deployed by this operator");
        FIELDS = java.util.Collections.unmodifiableMap(f);
    }

    private UnappliedFields() {
    }

    /** The unapplied fields this spec sets to something other than their default (upstream's defaults do nothing either). */
    public static List<String> setIn(HyperConvergedSpec spec) {
        Map<String, Object> given = SpecJson.toMap(spec);
        Map<String, Object> defaults = SpecJson.toMap(new HyperConvergedSpec());
        List<String> out = new ArrayList<>();
        for (String field : FIELDS.keySet()) {
            Object value = given.get(field);
            if (value != null && !Objects.equals(value, defaults.get(field)) && !isFalse(value)) {
                out.add(field);
            }
        }
        return out;
    }

    private static boolean isFalse(Object value) {
        return Boolean.FALSE.equals(value) || "".equals(value);
    }
}
