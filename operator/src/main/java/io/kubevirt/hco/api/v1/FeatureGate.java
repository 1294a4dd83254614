package io.kubevirt.hco.api.v1;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.fabric8.generator.annotation.Required;

/** One v1 feature gate: its v1beta1 name, and False to disable it (absent means True). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FeatureGate {

    public enum Enablement {
        True, False
    }

    @Required
    public String name;

    public Enablement enabled;
}
