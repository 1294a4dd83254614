package io.kubevirt.hco.components;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kubevirt.hco.core.ComponentExpectation;
import io.kubevirt.hco.core.ComponentObservation;
import io.kubevirt.hco.core.Condition;
import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.core.GateEvaluator;
import io.kubevirt.hco.core.GateInput;
import io.kubevirt.hco.core.HyperConvergedObservation;
import io.kubevirt.hco.core.ObservationEvidence;
import io.kubevirt.hco.core.SpecState;
import io.kubevirt.hco.core.StackConditions;
import io.kubevirt.hco.core.Stabilizer;

/**
 * Component CRs as other teams' operators might write them: a converged status spoiled by
 * generated corruptions (wrong types, huge values, missing fields, unknown and duplicated
 * conditions, timestamps in the future or unparsable), read by the reconciler's own path
 * ({@link ObservationReader} then the core). No exception escapes; any corruption that removes
 * evidence keeps the gate closed and the HyperConverged's Upgradeable condition names the
 * component and what is wrong; corruptions that remove nothing (noise) do not close it.
 *
 * <pre>mvn -B test -Dtest=FuzzedStatusTest -Dhco.fuzz.cases=100000</pre>
 */
class FuzzedStatusTest {

    static final int CASES = Integer.getInteger("hco.fuzz.cases", 5_000);
    static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");
    static final String VERSION = "1.0.0";
    private static final String HUGE = "x".repeat(1 << 20);

    /** A corruption of a status map; {@code closes}: whether it removes evidence for that kind of component. */
    record Corruption(String name, boolean closesGeneration, boolean closesHeartbeat, Apply apply) {
    }

    /** Spoils {@code status} of a CR of {@code d}; {@code pick} chooses which part and how. */
    interface Apply {
        void to(Map<String, Object> status, int pick, ComponentDescriptor d);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> conditions(Map<String, Object> status) {
        return (List<Map<String, Object>>) status.get("conditions");
    }

    /** One of the three conditions the gate reads (a copy of it if duplicated); an empty map when none is left. */
    private static Map<String, Object> condition(Map<String, Object> status, int pick) {
        List<Map<String, Object>> known = conditions(status).stream()
                .filter(c -> c.get("type") instanceof String t && List.of("Available", "Progressing", "Degraded").contains(t)).toList();
        return known.isEmpty() ? new HashMap<>() : known.get(Math.floorMod(pick, known.size()));
    }

    /** Corruptions writing the same place would undo each other: a case applies at most one per place. */
    private static String slot(String name) {
        if (name.startsWith("observedGeneration")) {
            return "observedGeneration";
        }
        if (name.startsWith("observed version")) {
            return "observedVersion";
        }
        if (name.startsWith("heartbeat")) {
            return "heartbeat";
        }
        if (name.startsWith("status of") || name.startsWith("status not a literal")) {
            return "condition status";
        }
        return name;
    }

    static final List<Corruption> CORRUPTIONS = List.of(
            new Corruption("status not an object", true, true, (s, p, d) -> { s.clear(); s.put("__replace", "text"); }),
            new Corruption("conditions not a list", true, true, (s, p, d) -> s.put("conditions", p % 2 == 0 ? "Available" : 7)),
            new Corruption("condition not an object", true, true, (s, p, d) -> ((List<Object>) (Object) conditions(s)).add(42)),
            new Corruption("condition without type", true, true, (s, p, d) -> condition(s, p).remove("type")),
            new Corruption("duplicated condition", true, true,
                    (s, p, d) -> conditions(s).add(new LinkedHashMap<>(condition(s, p)))),
            new Corruption("condition missing", true, true, (s, p, d) -> conditions(s).removeIf(
                    c -> new String[] { "Available", "Progressing", "Degraded" }[Math.floorMod(p, 3)].equals(c.get("type")))),
            new Corruption("status of wrong type", true, true, (s, p, d) -> condition(s, p).put("status", p % 2 == 0)),
            new Corruption("status not a literal", true, true,
                    (s, p, d) -> condition(s, p).put("status", p % 2 == 0 ? "true" : "Unknown")),
            // a field of the wrong type makes the whole status unreadable, whether this kind of component uses it or not
            new Corruption("observedGeneration huge", true, true,
                    (s, p, d) -> s.put("observedGeneration", new BigInteger("9".repeat(40)))),
            new Corruption("observedGeneration a string", true, true, (s, p, d) -> s.put("observedGeneration", "3")),
            new Corruption("observedGeneration negative", true, false, (s, p, d) -> s.put("observedGeneration", -1L)),
            new Corruption("observedGeneration a float", true, true, (s, p, d) -> s.put("observedGeneration", 3.0)),
            new Corruption("observed version a number", true, true, (s, p, d) -> s.put(d.observedVersionField(), 1.0)),
            new Corruption("observed version missing", true, true, (s, p, d) -> s.remove(d.observedVersionField())),
            new Corruption("heartbeat unparsable", true, true,
                    (s, p, d) -> condition(s, p).put("lastHeartbeatTime", p % 2 == 0 ? "yesterday" : 12)),
            // no clock is compared: a heartbeat far ahead is noise
            new Corruption("heartbeat in the future", false, false, (s, p, d) -> conditions(s)
                    .forEach(c -> c.put("lastHeartbeatTime", NOW.plusSeconds(3600L * (1 + Math.floorMod(p, 1000))).toString()))),
            // noise: nothing the gate relies on is touched
            new Corruption("unknown condition type", false, false, (s, p, d) -> conditions(s).add(new LinkedHashMap<>(
                    Map.of("type", "Upgradeable" + p, "status", "Maybe")))),
            new Corruption("huge message", false, false, (s, p, d) -> condition(s, p).put("message", HUGE)),
            new Corruption("unknown status field", false, false, (s, p, d) -> s.put("x-" + p, List.of(Map.of("a", p)))),
            new Corruption("reason of wrong type", true, true, (s, p, d) -> condition(s, p).put("reason", List.of())));

    @Test
    void malformedComponentStatusNeverThrowsAndKeepsTheGateClosedWithAReason() {
        int[] closed = { 0 };
        int[] open = { 0 };
        qt().withExamples(CASES).withFixedSeed(Long.getLong("hco.fuzz.seed", 7L))
                .forAll(lists().of(integers().between(0, CORRUPTIONS.size() * 1000 - 1)).ofSizeBetween(1, 4))
                .checkAssert(codes -> {
                    for (ComponentDescriptor d : List.of(ComponentCatalog.KUBEVIRT, ComponentCatalog.CDI)) {
                        boolean byGeneration = d.evidence() == ObservationEvidence.OBSERVED_GENERATION;
                        Map<String, Object> status = convergedStatus(d);
                        Set<String> applied = new TreeSet<>();
                        Set<String> slots = new HashSet<>();
                        boolean shouldClose = false;
                        for (int code : codes) {
                            Corruption c = CORRUPTIONS.get(code % CORRUPTIONS.size());
                            if (!slots.add(slot(c.name()))) {
                                continue;
                            }
                            c.apply().to(status, code / CORRUPTIONS.size(), d);
                            applied.add(c.name());
                            shouldClose |= byGeneration ? c.closesGeneration() : c.closesHeartbeat();
                            if (c.name().startsWith("status not") || c.name().startsWith("conditions not")
                                    || c.name().startsWith("condition not")) {
                                break; // the structure is gone: later corruptions have nothing to address
                            }
                        }
                        Object written = status.containsKey("__replace") ? status.get("__replace") : status;
                        GateDecision decision = decide(d, written);
                        String what = d.name() + " with " + applied;
                        if (shouldClose) {
                            closed[0]++;
                            assertThat(decision.upgradeable()).as(what + " must close the gate").isFalse();
                            Condition upgradeable = hcoUpgradeable(d, written, decision);
                            assertThat(upgradeable.status()).isEqualTo("False");
                            assertThat(upgradeable.message()).as(what).contains(d.name()).isNotBlank();
                        } else {
                            open[0]++;
                            assertThat(decision.upgradeable()).as(what + " is noise: " + decision.message()).isTrue();
                        }
                    }
                });
        System.out.printf("[fuzz] component status: %d cases x 2 components: %d closed as expected, %d noise passed%n",
                CASES, closed[0], open[0]);
        assertThat(closed[0]).isPositive();
        assertThat(open[0]).isPositive();
    }

    /** What a converged component writes, in the shape of its descriptor. */
    static Map<String, Object> convergedStatus(ComponentDescriptor d) {
        boolean byGeneration = d.evidence() == ObservationEvidence.OBSERVED_GENERATION;
        Map<String, Object> status = new LinkedHashMap<>();
        List<Map<String, Object>> conditions = new ArrayList<>();
        for (String[] c : new String[][] { { "Available", "True" }, { "Progressing", "False" }, { "Degraded", "False" } }) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("type", c[0]);
            m.put("status", c[1]);
            m.put("reason", "AsExpected");
            m.put("lastHeartbeatTime", NOW.minusSeconds(1).toString());
            if (byGeneration) {
                m.put("observedGeneration", 3L);
            }
            conditions.add(m);
        }
        status.put("conditions", conditions);
        if (byGeneration) {
            status.put("observedGeneration", 3L);
        }
        status.put(d.observedVersionField(), VERSION);
        if (d.targetVersionField() != null) {
            status.put(d.targetVersionField(), VERSION);
        }
        return status;
    }

    private static GenericKubernetesResource cr(ComponentDescriptor d, Object status) {
        GenericKubernetesResource cr = new GenericKubernetesResource();
        cr.setApiVersion(d.apiVersion());
        cr.setKind(d.kind());
        cr.setMetadata(new ObjectMetaBuilder().withName(d.crName()).withResourceVersion("100").withGeneration(3L)
                .withAnnotations(new HashMap<>(Map.of(ObservationReader.STATUS_AT_SPEC_WRITE, "before-any-status")))
                .build());
        cr.getAdditionalProperties().put("status", status);
        return cr;
    }

    private static GateInput input(ComponentDescriptor d, Object status) {
        GenericKubernetesResource cr = cr(d, status);
        // the spec is in sync and the status was written after it: only the status decides
        ComponentObservation seen = ObservationReader.read(d, cr)
                .withSpec(new SpecState(true, "before-any-status", ObservationReader.statusFingerprint(cr)));
        return new GateInput(NOW, VERSION, true, true, new HyperConvergedObservation(true, false, 2, 2L, VERSION),
                List.of(new GateInput.Component(new ComponentExpectation(d.name(), VERSION, d.evidence(),
                        d.targetVersionField() != null, null), seen)), null);
    }

    private static GateDecision decide(ComponentDescriptor d, Object status) {
        return Stabilizer.decide(GateEvaluator.assess(input(d, status)), NOW.minusSeconds(600),
                java.time.Duration.ofSeconds(5), NOW);
    }

    private static Condition hcoUpgradeable(ComponentDescriptor d, Object status, GateDecision decision) {
        return StackConditions.summarize(input(d, status), decision).stream()
                .filter(c -> c.type().equals("Upgradeable")).findFirst().orElseThrow();
    }
}
