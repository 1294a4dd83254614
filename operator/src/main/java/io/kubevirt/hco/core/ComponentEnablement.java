package io.kubevirt.hco.core;

/**
 * Whether a component is part of this stack, decided from its setting and what the cluster shows.
 * A component is never dropped silently: once it was part of the stack (recorded in the
 * HyperConverged status), its CRD going away closes the gate until an administrator disables it.
 */
public final class ComponentEnablement {

    /** What the operator was told about a component (env {@code HCO_COMPONENT_<NAME>}). */
    public enum Setting {
        /** Always part of the stack: a missing CRD closes the gate. */
        ENABLED,
        /** Never touched, never waited on; reported as not installed. */
        DISABLED,
        /** Part of the stack where the platform supports it and its CRD is served. */
        AUTO;

        /** {@code enabled}, {@code disabled}, {@code auto} (any case); anything else is refused with what is allowed. */
        public static Setting parse(String component, String value) {
            if (value == null || value.isBlank()) {
                return ENABLED;
            }
            for (Setting s : values()) {
                if (s.name().equalsIgnoreCase(value.trim())) {
                    return s;
                }
            }
            throw new IllegalArgumentException("component " + component + ": '" + value
                    + "' is not a setting; use enabled, disabled or auto");
        }
    }

    /**
     * What the cluster shows of a component.
     *
     * @param crd the CRD's name
     * @param crdServed whether the CRD exists, is established and serves the version the operator uses
     * @param platformSupported whether the cluster offers what the component needs beyond its CRD
     *        (SSP: OpenShift's templates API); true for components that need nothing more
     * @param platformNeed what that is, for messages (null when nothing)
     * @param partOfStack whether the HyperConverged status records it as part of the stack
     */
    public record Facts(String crd, boolean crdServed, boolean platformSupported, String platformNeed,
            boolean partOfStack) {
    }

    /** The outcome: {@code message} says why, for the explanation and the gate's blocker. */
    public record Resolution(State state, String message) {
        public boolean managed() {
            return state == State.ENABLED;
        }
    }

    public enum State {
        /** Part of the stack, and its CRD is served: written, watched, waited on. */
        ENABLED,
        /** Part of the stack, but its CRD is not served: the gate stays closed (ComponentCrdMissing). */
        CRD_MISSING,
        /** Not part of this stack: not written, not waited on, listed as not installed. */
        NOT_INSTALLED
    }

    private ComponentEnablement() {
    }

    public static Resolution resolve(String component, String settingEnv, Setting setting, Facts facts) {
        switch (setting) {
            case DISABLED:
                return new Resolution(State.NOT_INSTALLED, component + " is disabled by configuration");
            case ENABLED:
                return facts.crdServed() ? new Resolution(State.ENABLED, null) : crdMissing(component, settingEnv, facts,
                        "it is enabled by configuration");
            default:
                if (facts.crdServed() && facts.platformSupported()) {
                    return new Resolution(State.ENABLED, null);
                }
                if (facts.partOfStack()) {
                    return crdMissing(component, settingEnv, facts, "it is part of this stack (HyperConverged status)");
                }
                return new Resolution(State.NOT_INSTALLED, !facts.platformSupported()
                        ? component + " is not installed: it needs " + facts.platformNeed() + ", which this cluster does not serve"
                        : component + " is not installed: its CRD " + facts.crd() + " is not served");
        }
    }

    private static Resolution crdMissing(String component, String settingEnv, Facts facts, String why) {
        String need = facts.crdServed() ? facts.platformNeed() + " is not served" : "its CRD " + facts.crd()
                + " is not served";
        return new Resolution(State.CRD_MISSING, need + ", but " + why + ": install the " + component
                + " operator's CRD, or set " + settingEnv + "=disabled to run the stack without " + component);
    }
}
