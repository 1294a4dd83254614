package io.kubevirt.hco.core;

import java.util.List;

/**
 * {@code kubevirt_hco_system_health_status} with upstream HCO's meaning, from the HyperConverged's
 * own conditions: error while the stack is not Available or is Degraded; warning while a reconcile
 * did not complete or something is Progressing (an upgrade too: alerts that must stay quiet during
 * upgrades say so themselves); healthy otherwise. A condition that is missing counts against it.
 */
public enum SystemHealth {
    HEALTHY(0), WARNING(1), ERROR(2);

    private final int value;

    SystemHealth(int value) {
        this.value = value;
    }

    public int value() {
        return value;
    }

    public static SystemHealth of(List<Condition> conditions) {
        if (!isTrue(conditions, ConditionTypes.AVAILABLE) || isTrue(conditions, ConditionTypes.DEGRADED)) {
            return ERROR;
        }
        if (!isTrue(conditions, ConditionTypes.RECONCILE_COMPLETE) || isTrue(conditions, ConditionTypes.PROGRESSING)) {
            return WARNING;
        }
        return HEALTHY;
    }

    private static boolean isTrue(List<Condition> conditions, String type) {
        return conditions.stream().anyMatch(c -> type.equals(c.type()) && c.isTrue());
    }
}
