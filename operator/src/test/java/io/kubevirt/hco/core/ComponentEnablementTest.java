package io.kubevirt.hco.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.kubevirt.hco.core.ComponentEnablement.Facts;
import io.kubevirt.hco.core.ComponentEnablement.Setting;
import io.kubevirt.hco.core.ComponentEnablement.State;

class ComponentEnablementTest {

    @ParameterizedTest(name = "{0}, CRD served {1}, platform {2}, part of the stack {3} -> {4}")
    @CsvSource({
            // enabled: the CRD decides between managed and a closed gate, nothing else
            "ENABLED,  true,  true,  false, ENABLED",
            "ENABLED,  false, true,  false, CRD_MISSING",
            "ENABLED,  false, true,  true,  CRD_MISSING",
            // disabled: never part of the stack, whatever the cluster shows
            "DISABLED, true,  true,  true,  NOT_INSTALLED",
            "DISABLED, false, false, true,  NOT_INSTALLED",
            // auto: joins where it can run; once part of the stack, never dropped silently
            "AUTO,     true,  true,  false, ENABLED",
            "AUTO,     true,  false, false, NOT_INSTALLED",
            "AUTO,     false, true,  false, NOT_INSTALLED",
            "AUTO,     false, true,  true,  CRD_MISSING",
            "AUTO,     true,  false, true,  CRD_MISSING",
    })
    void resolves(Setting setting, boolean crdServed, boolean platform, boolean partOfStack, State expected) {
        var r = ComponentEnablement.resolve("SSP", "HCO_COMPONENT_SSP", setting,
                new Facts("ssps.ssp.kubevirt.io", crdServed, platform, "the template.openshift.io API (OpenShift)",
                        partOfStack));
        assertThat(r.state()).isEqualTo(expected);
        if (expected != State.ENABLED) {
            assertThat(r.message()).as("says why").contains("SSP");
        }
        if (expected == State.CRD_MISSING) {
            assertThat(r.message()).as("says how to fix it").contains("HCO_COMPONENT_SSP=disabled");
        }
    }

    @ParameterizedTest
    @CsvSource({ "enabled, ENABLED", "Disabled, DISABLED", " AUTO , AUTO", "'', ENABLED" })
    void parsesSettings(String value, Setting expected) {
        assertThat(Setting.parse("SSP", value)).isEqualTo(expected);
    }

    @org.junit.jupiter.api.Test
    void refusesAnUnknownSettingWithWhatIsAllowed() {
        assertThatThrownBy(() -> Setting.parse("SSP", "maybe")).hasMessageContaining("'maybe'")
                .hasMessageContaining("enabled, disabled or auto");
    }
}
