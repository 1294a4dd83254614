package io.kubevirt.hco.components;

import java.io.IOException;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;

/**
 * The HyperConverged spec with every field the user left out (or set to null) filled from the
 * API's defaults, nested objects merged field by field. The CRD's schema requires most of these,
 * but a spec that reached us past an older schema must yield component specs, not a
 * NullPointerException in the middle of a reconcile.
 */
public final class SpecDefaults {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .setDefaultMergeable(true);
    static {
        // a list the user wrote replaces the default one: merged, workloadUpdateMethods [Evict] would be [LiveMigrate, Evict]
        MAPPER.configOverride(java.util.List.class).setMergeable(false);
    }

    private SpecDefaults() {
    }

    public static HyperConvergedSpec completed(HyperConvergedSpec spec) {
        if (spec == null) {
            return new HyperConvergedSpec();
        }
        try {
            return MAPPER.readerForUpdating(new HyperConvergedSpec()).readValue(MAPPER.writeValueAsBytes(spec));
        } catch (IOException e) {
            throw new IllegalArgumentException("the HyperConverged spec cannot be completed with its defaults: "
                    + e.getMessage(), e);
        }
    }
}
