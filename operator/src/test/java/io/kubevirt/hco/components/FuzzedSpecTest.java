package io.kubevirt.hco.components;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JacksonException;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.kubevirt.hco.api.v1beta1.HyperConverged;

/**
 * Generated HyperConverged specs through the reconciler's path: the client's deserialization, then
 * every component's desired spec and its fingerprint. A value of the wrong type is refused with an
 * error naming the field (the API server's schema refuses it before that, see FaultsAndInputIT);
 * anything of the right type, however odd (nulls, whole sections missing, empty, huge), yields
 * specs with no exception. (Unknown fields never arrive: the API server prunes them.)
 *
 * <pre>mvn -B test -Dtest=FuzzedSpecTest -Dhco.fuzz.cases=100000</pre>
 */
class FuzzedSpecTest {

    static final int CASES = Integer.getInteger("hco.fuzz.cases", 5_000);

    /** path → [a valid value, an odd but well-typed value, a value of the wrong type] */
    static final Map<String, Object[]> FIELDS = new LinkedHashMap<>();
    static {
        for (String gate : List.of("downwardMetrics", "persistentReservation", "alignCPUs",
                "enableMultiArchBootImageImport")) {
            FIELDS.put("featureGates." + gate, new Object[] { true, null, "yes" });
        }
        for (String placement : List.of("infra", "workloads")) {
            FIELDS.put(placement + ".nodePlacement.nodeSelector", new Object[] { Map.of("zone", "a"),
                    hugeMap(), List.of("zone=a") });
            FIELDS.put(placement + ".nodePlacement.tolerations", new Object[] {
                    List.of(Map.of("key", "k", "operator", "Exists", "effect", "NoSchedule")),
                    List.of(Map.of("tolerationSeconds", Long.MAX_VALUE, "key", "x".repeat(10_000))),
                    Map.of("key", "k") });
        }
        FIELDS.put("certConfig.ca.duration", new Object[] { "48h", "", List.of(1) });
        FIELDS.put("certConfig.server.renewBefore", new Object[] { "12h", "\u2603".repeat(1000), Map.of() });
        FIELDS.put("liveMigrationConfig.parallelMigrationsPerCluster", new Object[] { 5, Integer.MAX_VALUE, "five" });
        FIELDS.put("liveMigrationConfig.completionTimeoutPerGiB", new Object[] { 150, -1, List.of() });
        FIELDS.put("liveMigrationConfig.bandwidthPerMigration", new Object[] { "64Mi", null, Map.of("a", 1) });
        FIELDS.put("liveMigrationConfig.allowPostCopy", new Object[] { false, null, 3 });
        FIELDS.put("uninstallStrategy", new Object[] { "RemoveWorkloads", null, "DeleteEverything" });
        for (String section : List.of("featureGates", "certConfig", "certConfig.ca", "liveMigrationConfig", "infra")) {
            FIELDS.put(section + "$null", new Object[] { Map.of(), null, "a string" });
        }
    }

    private static Map<String, String> hugeMap() {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < 2_000; i++) {
            m.put("label-" + i, "v".repeat(100));
        }
        return m;
    }

    @Test
    void specsOfTheRightTypeAlwaysYieldComponentSpecsAndWrongTypesAreRefusedByName() {
        List<String> paths = new ArrayList<>(FIELDS.keySet());
        int[] refused = { 0 };
        int[] accepted = { 0 };
        qt().withExamples(CASES).withFixedSeed(Long.getLong("hco.fuzz.seed", 11L))
                .forAll(lists().of(integers().between(0, paths.size() * 3 - 1)).ofSizeBetween(0, 8))
                .checkAssert(codes -> {
                    Map<String, Object> spec = new LinkedHashMap<>();
                    for (int code : codes) {
                        String path = paths.get(code / 3);
                        put(spec, path.replace("$null", ""), FIELDS.get(path)[code % 3]);
                    }
                    // a later write may replace or go through an earlier one: judge the final tree
                    List<String> wrong = new ArrayList<>();
                    for (String path : paths) {
                        if (get(spec, path.replace("$null", "")) == FIELDS.get(path)[2]) {
                            wrong.add(path);
                        }
                    }
                    String json = Serialization.asJson(Map.of("apiVersion", "hco.kubevirt.io/v1beta1",
                            "kind", "HyperConverged", "metadata", Map.of("name", "kubevirt-hyperconverged"), "spec", spec));
                    HyperConverged hco;
                    try {
                        hco = Serialization.unmarshal(json, HyperConverged.class);
                    } catch (RuntimeException e) {
                        Throwable cause = e.getCause() != null ? e.getCause() : e;
                        assertThat(wrong).as("refused a well-typed spec " + json + ": " + e).isNotEmpty();
                        assertThat(cause).isInstanceOf(JacksonException.class);
                        String field = last(wrong.get(0));
                        assertThat(wrong.stream().anyMatch(w -> String.valueOf(cause.getMessage()).contains(last(w))))
                                .as("the error names a field (" + field + "...): " + cause.getMessage()).isTrue();
                        refused[0]++;
                        return;
                    }
                    // some wrong types are coerced by Jackson (e.g. 3 → true); what arrives is well typed
                    for (ComponentDescriptor d : ComponentCatalog.ALL) {
                        Map<String, Object> desired = d.desiredSpec(hco.getSpec(), new io.kubevirt.hco.components.SpecContext("ns"));
                        assertThat(desired).isNotNull();
                        assertThat(SpecJson.fingerprint(desired)).hasSize(24);
                    }
                    accepted[0]++;
                });
        System.out.printf("[fuzz] HyperConverged spec: %d cases: %d refused with the field named, %d yielded specs%n",
                CASES, refused[0], accepted[0]);
        assertThat(refused[0]).isPositive();
        assertThat(accepted[0]).isPositive();
    }

    private static String last(String path) {
        String p = path.replace("$null", "");
        return p.substring(p.lastIndexOf('.') + 1);
    }

    @SuppressWarnings("unchecked")
    private static void put(Map<String, Object> root, String path, Object value) {
        String[] parts = path.split("\\.");
        Map<String, Object> node = root;
        for (int i = 0; i < parts.length - 1; i++) {
            Object child = node.get(parts[i]);
            Map<String, Object> next = child instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m)
                    : new LinkedHashMap<>();
            node.put(parts[i], next);
            node = next;
        }
        node.put(parts[parts.length - 1], value);
    }

    private static Object get(Map<String, Object> root, String path) {
        Object node = root;
        for (String part : path.split("\\.")) {
            if (!(node instanceof Map<?, ?> m)) {
                return null;
            }
            node = m.get(part);
        }
        return node;
    }
}
