package io.kubevirt.hco.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcessLifecycleTest {

    @Test
    void theGateMeasuresTimeOnAMonotonicClock() {
        assertThat(new ProcessLifecycle().clock).isInstanceOf(io.kubevirt.hco.core.MonotonicClock.class);
    }
}
