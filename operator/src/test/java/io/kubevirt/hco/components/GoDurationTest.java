package io.kubevirt.hco.components;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** Expected strings are what Go's {@code time.ParseDuration(s).String()} prints. */
class GoDurationTest {

    @Test
    void writesWhatGoWrites() {
        assertThat(GoDuration.canonical("48h")).isEqualTo("48h0m0s");
        assertThat(GoDuration.canonical("48h0m0s")).isEqualTo("48h0m0s");
        assertThat(GoDuration.canonical("90m")).isEqualTo("1h30m0s");
        assertThat(GoDuration.canonical("10m")).isEqualTo("10m0s");
        assertThat(GoDuration.canonical("1.5h")).isEqualTo("1h30m0s");
        assertThat(GoDuration.canonical("90.5s")).isEqualTo("1m30.5s");
        assertThat(GoDuration.canonical("2h45m30.25s")).isEqualTo("2h45m30.25s");
        assertThat(GoDuration.canonical("1500ms")).isEqualTo("1.5s");
        assertThat(GoDuration.canonical("500ms")).isEqualTo("500ms");
        assertThat(GoDuration.canonical("1us")).isEqualTo("1µs");
        assertThat(GoDuration.canonical("12ns")).isEqualTo("12ns");
        assertThat(GoDuration.canonical("0")).isEqualTo("0s");
        assertThat(GoDuration.canonical("-1h")).isEqualTo("-1h0m0s");
        assertThat(GoDuration.canonical("8760h")).isEqualTo("8760h0m0s");
    }

    @Test
    void leavesTextItCannotParseAsItIs() {
        assertThat(GoDuration.canonical("two days")).isEqualTo("two days");
        assertThat(GoDuration.canonical("48")).isEqualTo("48");
        assertThat(GoDuration.canonical("h")).isEqualTo("h");
        assertThat(GoDuration.canonical(null)).isNull();
    }

    @Test
    void aCertConfigIsWrittenInTheCanonicalFormThatUpstreamWrites() {
        var config = new io.kubevirt.hco.api.v1beta1.CertRotationConfig();
        config.ca = new io.kubevirt.hco.api.v1beta1.CertRotation("48h", "24h");
        assertThat(GoDuration.canonicalCertConfig(config)).isEqualTo(Map.of(
                "ca", Map.of("duration", "48h0m0s", "renewBefore", "24h0m0s"),
                "server", Map.of("duration", "24h0m0s", "renewBefore", "12h0m0s")));
    }
}
