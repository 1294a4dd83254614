package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.type.TypeReference;

import io.kubevirt.hco.Repo;
import io.kubevirt.hco.packaging.BundleGenerator;

/**
 * The component CRDs the release ships are generated from the components' own Go modules
 * ({@code packaging/components/crds.sh}) and equal, field by field, the CRDs upstream HCO v1.16.0
 * ships ({@code packaging/upstream/v1.16.0}): every served version, the storage version, the
 * subresources, the printer columns and the whole schema. The only differences allowed are the
 * cosmetic ones in {@link #COSMETIC}, each with its reason. {@code -Dhco.regenerate=true} copies the
 * generated CRDs into the chart (the bundle takes them from the chart).
 */
class ComponentCrdsIT {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    /** CRD name → the reference file in packaging/upstream/v1.16.0. */
    static final Map<String, String> REFERENCE = Map.of(
            "kubevirts.kubevirt.io", "kubevirt00.crd.yaml",
            "cdis.cdi.kubevirt.io", "containerized-data-importer00.crd.yaml",
            "networkaddonsconfigs.networkaddonsoperator.network.kubevirt.io", "cluster-network-addons00.crd.yaml",
            "ssps.ssp.kubevirt.io", "scheduling-scale-performance00.crd.yaml");

    /**
     * The differences from the reference that change nothing, each with why: the exact difference
     * as {@link #differences} words it.
     */
    static final Map<String, String> COSMETIC = Map.of(
            "ssps.ssp.kubevirt.io /spec/conversion: only in the first",
            "upstream writes conversion.strategy None, the apiextensions.k8s.io/v1 default the API server fills in"
                    + " when it is absent (SSP's release adds it with a kustomize patch, not its generator)");

    @Test
    void shippedComponentCrdsEqualUpstreamV1160AndAreGeneratedFromTheComponentsModules() throws Exception {
        Path generated = generate();
        boolean regenerate = Boolean.getBoolean("hco.regenerate");
        List<String> failures = new ArrayList<>();
        for (Map.Entry<String, String> e : REFERENCE.entrySet()) {
            String name = e.getKey();
            Path shipped = shipped(name);
            Map<String, Object> fromModules = read(generated.resolve(name + ".yaml"));
            if (regenerate) {
                Files.copy(generated.resolve(name + ".yaml"), shipped, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            Map<String, Object> ours = read(shipped);
            for (String d : differences("", fromModules, ours)) {
                failures.add(name + ": the chart's copy differs from what the modules generate at " + d
                        + " (regenerate: mvn verify -Dit.test=ComponentCrdsIT -Dhco.regenerate=true)");
            }
            Map<String, Object> reference = read(Repo.path("packaging/upstream/v1.16.0/" + e.getValue()));
            for (String d : differences("", reference, ours)) {
                if (!COSMETIC.containsKey(name + " " + d)) {
                    failures.add(name + ": differs from upstream HCO v1.16.0 at " + d);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void theComparisonSeesADifferenceDeepInASchema() throws Exception {
        Map<String, Object> reference = read(Repo.path("packaging/upstream/v1.16.0/kubevirt00.crd.yaml"));
        Map<String, Object> changed = read(Repo.path("packaging/upstream/v1.16.0/kubevirt00.crd.yaml"));
        @SuppressWarnings("unchecked")
        Map<String, Object> status = (Map<String, Object>) at(changed,
                "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "status", "properties");
        status.remove("generations");
        assertThat(differences("", reference, changed))
                .containsExactly("/spec/versions/0/schema/openAPIV3Schema/properties/status/properties/generations: "
                        + "only in the first");
    }

    static Path shipped(String crd) {
        return Repo.path("helm/hco-operator/files/component-crds/" + crd + ".yaml");
    }

    /** Runs the generators (cached by their versions) and returns the directory of the four CRDs. */
    static Path generate() throws IOException, InterruptedException {
        BuildOutputs.Result r = BuildOutputs.run("bash", Repo.path("packaging/components/crds.sh").toString());
        if (r.exit() != 0) {
            throw new IllegalStateException("packaging/components/crds.sh failed:\n" + r.output());
        }
        String[] lines = r.output().strip().split("\n");
        return Path.of(lines[lines.length - 1]);
    }

    static Map<String, Object> read(Path file) throws IOException {
        return BundleGenerator.YAML.readValue(file.toFile(), MAP);
    }

    /** Every path where {@code a} and {@code b} differ, with what differs. */
    @SuppressWarnings("unchecked")
    static List<String> differences(String path, Object a, Object b) {
        List<String> out = new ArrayList<>();
        if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
            TreeSet<String> keys = new TreeSet<>();
            ma.keySet().forEach(k -> keys.add((String) k));
            mb.keySet().forEach(k -> keys.add((String) k));
            for (String k : keys) {
                String p = path + "/" + k;
                if (!ma.containsKey(k)) {
                    out.add(p + ": only in the second");
                } else if (!mb.containsKey(k)) {
                    out.add(p + ": only in the first");
                } else {
                    out.addAll(differences(p, ma.get(k), mb.get(k)));
                }
            }
        } else if (a instanceof List<?> la && b instanceof List<?> lb) {
            if (la.size() != lb.size()) {
                out.add(path + ": " + la.size() + " items vs " + lb.size());
            } else {
                for (int i = 0; i < la.size(); i++) {
                    out.addAll(differences(path + "/" + i, la.get(i), lb.get(i)));
                }
            }
        } else if (!Objects.equals(normalize(a), normalize(b))) {
            out.add(path + ": " + abbreviate(a) + " vs " + abbreviate(b));
        }
        return out;
    }

    /** YAML readers type numbers by size; 1 and 1L are the same value. */
    private static Object normalize(Object o) {
        return o instanceof Number n ? n.toString() : o;
    }

    private static String abbreviate(Object o) {
        String s = String.valueOf(o);
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }

    @SuppressWarnings("unchecked")
    private static Object at(Object root, Object... path) {
        Object o = root;
        for (Object p : path) {
            o = p instanceof Integer i ? ((List<Object>) o).get(i) : ((Map<String, Object>) o).get(p);
        }
        return o;
    }
}
