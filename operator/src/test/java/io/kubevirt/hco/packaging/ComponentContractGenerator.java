package io.kubevirt.hco.packaging;

import static io.kubevirt.hco.packaging.BundleGenerator.child;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Derives the component half of the release from upstream HCO's release (its CSV, images.csv and
 * hack/config, kept unmodified under {@code packaging/upstream/}) and the project's own selection
 * ({@code packaging/components/components.yaml}): the release file (versions, operator images and
 * every image an operator can pull, by digest) and how each component operator is deployed (pod
 * spec, RBAC, webhooks), which the chart renders and the bundle takes from the chart. Pure: the
 * files' contents in, the generated files' contents out.
 */
public final class ComponentContractGenerator {

    private static final ObjectMapper YAML = BundleGenerator.YAML;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {
    };
    private static final Pattern HACK_VARIABLE = Pattern.compile("^([A-Z_]+)=\"([^\"]*)\"$", Pattern.MULTILINE);
    /** A container image reference pinned by digest. */
    private static final Pattern PINNED = Pattern.compile("^[a-z0-9.-]+(:[0-9]+)?/[a-z0-9./_-]+@sha256:[0-9a-f]{64}$");

    /** The files written, repository-relative, both release files equal. */
    public static final String RELEASE = "packaging/release.yaml";
    public static final String CHART_RELEASE = "helm/hco-operator/files/release.yaml";
    public static final String CHART_OPERATORS = "helm/hco-operator/files/component-operators.yaml";

    private ComponentContractGenerator() {
    }

    /** Reads the selection and the upstream files it names from the repository at {@code root}. */
    public static Map<String, String> generate(Path root) throws IOException {
        Map<String, Object> selection = YAML.readValue(root.resolve("packaging/components/components.yaml").toFile(), MAP);
        Path source = root.resolve((String) selection.get("source"));
        return generate(selection, Files.readString(source.resolve((String) selection.get("csv"))),
                Files.readString(source.resolve("images.csv")), Files.readString(source.resolve("hack-config.txt")),
                Files.readString(source.resolve("PROVENANCE")));
    }

    @SuppressWarnings("unchecked")
    static Map<String, String> generate(Map<String, Object> selection, String csvYaml, String imagesCsv,
            String hackConfig, String provenance) throws IOException {
        Map<String, Object> csv = YAML.readValue(csvYaml, MAP);
        Map<String, String> versions = hackVariables(hackConfig);
        Map<String, String> images = imagesByVariable(imagesCsv);
        Map<String, Object> strategy = child(child(child(csv, "spec"), "install"), "spec");
        Map<String, String> namespaceFieldRefs = (Map<String, String>) selection.getOrDefault("namespaceFieldRefs",
                Map.of());

        Map<String, Object> releaseComponents = new LinkedHashMap<>();
        Map<String, Object> operators = new LinkedHashMap<>();
        Set<String> related = new LinkedHashSet<>();
        for (Map.Entry<String, Object> e : ((Map<String, Object>) selection.get("components")).entrySet()) {
            String key = e.getKey();
            Map<String, Object> sel = (Map<String, Object>) e.getValue();
            String version = required(versions, (String) sel.get("versionVariable"), "hack-config.txt");
            String operatorImage = required(images, (String) sel.get("operatorImage"), "images.csv");
            Map<String, Object> deployment = deployment(strategy, (String) sel.get("deployment"));
            Map<String, Object> op = operator(key, sel, deployment, version, operatorImage, namespaceFieldRefs);
            op.put("clusterRules", withExtras(permissionsOf(strategy, "clusterPermissions", (String) op.get("serviceAccount")),
                    (List<Map<String, Object>>) sel.get("extraClusterRules")));
            op.put("rules", permissionsOf(strategy, "permissions", (String) op.get("serviceAccount")));
            List<Object> webhooks = webhooks(csv, (String) sel.get("deployment"));
            if (!webhooks.isEmpty()) {
                op.put("webhooks", webhooks);
                op.put("certificateDir", sel.get("certificateDir"));
            }
            operators.put(key, op);

            Map<String, Object> rc = new LinkedHashMap<>();
            rc.put("version", version);
            rc.put("image", operatorImage);
            rc.put("operands", operandImages(op, images));
            releaseComponents.put(key, rc);
            related.add(operatorImage);
            related.addAll(((Map<String, String>) rc.get("operands")).values());
            for (Map<String, Object> c : (List<Map<String, Object>>) op.get("containers")) {
                related.add((String) c.get("image"));
            }
        }
        for (String image : related) {
            if (!PINNED.matcher(image).matches()) {
                throw new IllegalStateException("image not pinned by digest: " + image);
            }
        }

        Map<String, Object> release = new LinkedHashMap<>();
        release.put("components", releaseComponents);
        release.put("relatedImages", relatedImages(related));
        release.put("priorityClasses", selection.get("priorityClasses"));
        String releaseFile = releaseHeader(selection, provenance) + YAML.writeValueAsString(release);
        String operatorsFile = "# Generated by ComponentContractGenerator from " + selection.get("source")
                + " and packaging/components/components.yaml:\n"
                + "# do not edit; change the selection or the upstream reference and regenerate (see there).\n"
                + YAML.writeValueAsString(operators);
        Map<String, String> files = new TreeMap<>();
        files.put(RELEASE, releaseFile);
        files.put(CHART_RELEASE, releaseFile);
        files.put(CHART_OPERATORS, operatorsFile);
        return files;
    }

    private static String releaseHeader(Map<String, Object> selection, String provenance) {
        StringBuilder b = new StringBuilder();
        b.append("# The release: what hco-operator ships beside itself, generated by ComponentContractGenerator; do\n")
                .append("# not edit (see packaging/components/components.yaml). Read by the Helm chart (this file's copy in\n")
                .append("# helm/hco-operator/files/release.yaml) and, through the chart, by the OLM bundle. Each component's\n")
                .append("# version is what its operator reports once converged: the same value is the operator's version\n")
                .append("# variable and hco-operator's expected version (KUBEVIRT_VERSION, CDI_VERSION, ...), so they cannot\n")
                .append("# drift apart. operands: every image the operator is told about (its environment), by digest.\n")
                .append("# relatedImages: every image the release can pull (a disconnected install mirrors exactly these).\n")
                .append("#\n# Provenance: versions from hack-config.txt, images from images.csv and the CSV's deployments, RBAC\n")
                .append("# and webhooks from the CSV, all in ").append(selection.get("source")).append(":\n");
        for (String line : provenance.strip().split("\n")) {
            b.append("#   ").append(line).append('\n');
        }
        return b.toString();
    }

    /** How one component operator is deployed: the chart renders it, the bundle takes the render. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> operator(String key, Map<String, Object> sel, Map<String, Object> deployment,
            String version, String operatorImage, Map<String, String> namespaceFieldRefs) throws IOException {
        Map<String, Object> spec = copy(child(deployment, "spec"));
        Map<String, Object> template = child(spec, "template");
        Map<String, Object> podSpec = child(template, "spec");
        Map<String, Object> podMetadata = child(template, "metadata");
        List<Map<String, Object>> containers = (List<Map<String, Object>>) podSpec.remove("containers");
        Map<String, Object> op = new LinkedHashMap<>();
        op.put("name", sel.get("name"));
        op.put("deployment", sel.get("deployment"));
        op.put("serviceAccount", podSpec.remove("serviceAccountName"));
        op.put("component", sel.get("component"));
        for (String field : List.of("versionEnv", "imageEnv", "hcoVersionEnv", "hcoSettingEnv", "crd", "requiresApi")) {
            if (sel.get(field) != null) {
                op.put(field, sel.get(field));
            }
        }
        op.put("replicas", spec.getOrDefault("replicas", 1));
        if (spec.get("strategy") instanceof Map<?, ?> strategy && !strategy.isEmpty()) {
            op.put("strategy", strategy);
        }
        op.put("selector", child(spec, "selector").get("matchLabels"));
        op.put("podLabels", withoutRecommendedLabels((Map<String, Object>) podMetadata.get("labels")));
        if (podMetadata.get("annotations") != null) {
            op.put("podAnnotations", podMetadata.get("annotations"));
        }
        op.put("podSpec", podSpec);
        Map<String, Object> first = containers.get(0);
        if (!operatorImage.equals(first.get("image"))) {
            throw new IllegalStateException(key + ": the CSV runs " + first.get("image") + " but images.csv pins "
                    + operatorImage);
        }
        for (Map<String, Object> c : containers) {
            for (Map<String, Object> env : (List<Map<String, Object>>) c.getOrDefault("env", List.of())) {
                if (env.get("valueFrom") instanceof Map<?, ?> from && from.get("fieldRef") instanceof Map<?, ?> ref) {
                    String path = namespaceFieldRefs.get(ref.get("fieldPath"));
                    if (path != null) {
                        ((Map<String, Object>) ref).put("fieldPath", path);
                    }
                }
            }
        }
        String versionEnv = (String) sel.get("versionEnv");
        if (!version.equals(envValue(first, versionEnv))) {
            throw new IllegalStateException(key + ": the CSV's " + versionEnv + " is " + envValue(first, versionEnv)
                    + ", hack-config.txt says " + version);
        }
        op.put("containers", containers);
        return op;
    }

    /** The images an operator is told about in its environment, checked against images.csv where it lists them. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> operandImages(Map<String, Object> op, Map<String, String> images) {
        Map<String, String> byRepository = new LinkedHashMap<>();
        images.values().forEach(i -> byRepository.put(i.substring(0, i.indexOf('@')), i));
        Map<String, String> operands = new TreeMap<>();
        for (Map<String, Object> c : (List<Map<String, Object>>) op.get("containers")) {
            for (Map<String, Object> env : (List<Map<String, Object>>) c.getOrDefault("env", List.of())) {
                String name = (String) env.get("name");
                Object value = env.get("value");
                if (value instanceof String s && s.contains("@sha256:") && !name.equals(op.get("imageEnv"))) {
                    String listed = byRepository.get(s.substring(0, s.indexOf('@')));
                    if (listed != null && !listed.equals(s)) {
                        throw new IllegalStateException(op.get("deployment") + " " + name + " is " + s
                                + " but images.csv pins " + listed);
                    }
                    operands.put(name, s);
                }
            }
        }
        return operands;
    }

    private static List<Map<String, Object>> relatedImages(Set<String> images) {
        List<Map<String, Object>> list = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (String image : images) {
            String repository = image.substring(0, image.indexOf('@'));
            String name = repository.substring(repository.lastIndexOf('/') + 1);
            if (!names.add(name)) {
                name = repository.replace('/', '-');
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", name);
            entry.put("image", image);
            list.add(entry);
        }
        return list;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> deployment(Map<String, Object> strategy, String name) {
        return ((List<Map<String, Object>>) strategy.get("deployments")).stream()
                .filter(d -> name.equals(d.get("name"))).findFirst()
                .orElseThrow(() -> new IllegalStateException("the CSV has no deployment " + name));
    }

    @SuppressWarnings("unchecked")
    private static List<Object> permissionsOf(Map<String, Object> strategy, String field, String serviceAccount) {
        List<Object> rules = new ArrayList<>();
        for (Map<String, Object> p : (List<Map<String, Object>>) strategy.getOrDefault(field, List.of())) {
            if (serviceAccount.equals(p.get("serviceAccountName"))) {
                rules.addAll((List<Object>) p.get("rules"));
            }
        }
        return rules;
    }

    private static List<Object> withExtras(List<Object> rules, List<Map<String, Object>> extras) {
        if (extras != null) {
            extras.forEach(x -> rules.add(x.get("rule")));
        }
        return rules;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> webhooks(Map<String, Object> csv, String deployment) throws IOException {
        List<Object> hooks = new ArrayList<>();
        for (Map<String, Object> w : (List<Map<String, Object>>) child(csv, "spec").getOrDefault("webhookdefinitions",
                List.of())) {
            if (deployment.equals(w.get("deploymentName"))) {
                hooks.add(copy(w));
            }
        }
        return hooks;
    }

    /** The chart sets the app.kubernetes.io labels itself (instance, part-of, version of this release). */
    private static Map<String, Object> withoutRecommendedLabels(Map<String, Object> labels) {
        Map<String, Object> kept = new LinkedHashMap<>();
        labels.forEach((k, v) -> {
            if (!k.startsWith("app.kubernetes.io/")) {
                kept.put(k, v);
            }
        });
        return kept;
    }

    @SuppressWarnings("unchecked")
    private static String envValue(Map<String, Object> container, String name) {
        return ((List<Map<String, Object>>) container.getOrDefault("env", List.of())).stream()
                .filter(e -> name.equals(e.get("name"))).map(e -> (String) e.get("value")).findFirst().orElse(null);
    }

    static Map<String, String> hackVariables(String hackConfig) {
        Map<String, String> vars = new LinkedHashMap<>();
        Matcher m = HACK_VARIABLE.matcher(hackConfig);
        while (m.find()) {
            vars.put(m.group(1), m.group(2));
        }
        return vars;
    }

    /** images.csv: image_var,name,tag,digest → image_var → name@sha256:digest. */
    static Map<String, String> imagesByVariable(String imagesCsv) {
        Map<String, String> images = new LinkedHashMap<>();
        for (String line : imagesCsv.strip().split("\n")) {
            String[] f = line.split(",");
            if (f.length != 4 || f[0].equals("image_var")) {
                continue;
            }
            images.put(f[0], f[1] + "@sha256:" + f[3]);
        }
        return images;
    }

    private static String required(Map<String, String> values, String key, String file) {
        String v = values.get(key);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException(file + " has no " + key);
        }
        return v;
    }

    private static Map<String, Object> copy(Map<String, Object> o) throws IOException {
        return JSON.readValue(JSON.writeValueAsString(o), MAP);
    }
}
