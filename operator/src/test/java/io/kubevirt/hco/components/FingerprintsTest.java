package io.kubevirt.hco.components;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class FingerprintsTest {

    @Test
    void theSameObjectIsFingerprintedOnceAndAnotherObjectAgain() {
        AtomicInteger taken = new AtomicInteger();
        Map<String, Object> spec = Map.of("a", 1);
        String first = Fingerprints.of("test/spec", spec, () -> {
            taken.incrementAndGet();
            return spec;
        });
        String again = Fingerprints.of("test/spec", spec, () -> {
            taken.incrementAndGet();
            return spec;
        });
        assertThat(again).isEqualTo(first).isEqualTo(SpecJson.fingerprint(spec));
        assertThat(taken).hasValue(1);

        // an equal map that is another object is fingerprinted again (identity, not equality)
        Map<String, Object> copy = new HashMap<>(spec);
        assertThat(Fingerprints.of("test/spec", copy, () -> {
            taken.incrementAndGet();
            return copy;
        })).isEqualTo(first);
        assertThat(taken).hasValue(2);

        // another value in the slot: its own fingerprint, not the remembered one
        assertThat(Fingerprints.of("test/spec", Map.of("a", 2))).isNotEqualTo(first)
                .isEqualTo(SpecJson.fingerprint(Map.of("a", 2)));
    }

    @Test
    void slotsAreIndependent() {
        Map<String, Object> spec = Map.of("b", true);
        String a = Fingerprints.of("test/one", spec);
        assertThat(Fingerprints.of("test/two", spec, () -> Map.of("c", 1))).isNotEqualTo(a);
        assertThat(Fingerprints.of("test/one", spec)).isEqualTo(a);
    }
}
