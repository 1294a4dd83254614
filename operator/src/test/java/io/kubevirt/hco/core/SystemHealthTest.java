package io.kubevirt.hco.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Upstream HCO's kubevirt_hco_system_health_status, from the HyperConverged's conditions. */
class SystemHealthTest {

    static List<Condition> conditions(String reconcileComplete, String available, String progressing, String degraded) {
        return List.of(c(ConditionTypes.RECONCILE_COMPLETE, reconcileComplete), c(ConditionTypes.AVAILABLE, available),
                c(ConditionTypes.PROGRESSING, progressing), c(ConditionTypes.DEGRADED, degraded));
    }

    static Condition c(String type, String status) {
        return new Condition(type, status, "R", "m", null, null);
    }

    @Test
    void healthyOnlyWhenCompleteAvailableSettledAndNotDegraded() {
        assertThat(SystemHealth.of(conditions("True", "True", "False", "False"))).isEqualTo(SystemHealth.HEALTHY);
    }

    @Test
    void errorWhenNotAvailableOrDegraded() {
        assertThat(SystemHealth.of(conditions("True", "False", "False", "False"))).isEqualTo(SystemHealth.ERROR);
        assertThat(SystemHealth.of(conditions("True", "True", "False", "True"))).isEqualTo(SystemHealth.ERROR);
        // error wins over warning
        assertThat(SystemHealth.of(conditions("False", "True", "True", "True"))).isEqualTo(SystemHealth.ERROR);
    }

    @Test
    void warningWhileProgressingOrWhenAReconcileDidNotComplete() {
        assertThat(SystemHealth.of(conditions("True", "True", "True", "False"))).isEqualTo(SystemHealth.WARNING);
        assertThat(SystemHealth.of(conditions("False", "True", "False", "False"))).isEqualTo(SystemHealth.WARNING);
    }

    @Test
    void aMissingConditionCountsAgainstIt() {
        assertThat(SystemHealth.of(List.of())).isEqualTo(SystemHealth.ERROR);
        assertThat(SystemHealth.of(List.of(c(ConditionTypes.AVAILABLE, "True")))).isEqualTo(SystemHealth.WARNING);
        assertThat(SystemHealth.values()).extracting(SystemHealth::value).containsExactly(0, 1, 2);
    }
}
