package io.kubevirt.hco.core;

/**
 * The condition types this operator reads and writes, each defined once: the three every component
 * reports, and those of the HyperConverged (and OLM's OperatorCondition, Upgradeable).
 */
public final class ConditionTypes {

    public static final String AVAILABLE = "Available";
    public static final String PROGRESSING = "Progressing";
    public static final String DEGRADED = "Degraded";
    public static final String UPGRADEABLE = "Upgradeable";
    public static final String RECONCILE_COMPLETE = "ReconcileComplete";
    /** Upstream's condition for a HyperConverged carrying JSON patch annotations; present only while True. */
    public static final String TAINTED_CONFIGURATION = "TaintedConfiguration";
    /** Present, True, while the spec sets upstream fields this operator accepts but does not apply yet. */
    public static final String UNAPPLIED_FIELDS = "UnappliedFields";

    private ConditionTypes() {
    }
}
