package io.kubevirt.hco.packaging;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;

/**
 * Builds the OLM registry+v1 bundle from what the build already produced, so nothing is written
 * twice: the CRD generated from the Java API, the RBAC rules generated from the reconciler's
 * declarations, the Deployment rendered from the Helm chart (one pod spec for both install paths),
 * the alert rules, and the hand-written CSV description in {@code packaging/olm/}. Pure: inputs in,
 * file contents out; the caller writes or diffs them.
 */
public final class BundleGenerator {

    public static final String PACKAGE = "hco-operator";
    public static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            // a string that reads as a number ("8443", an env value "1") stays a string when read back
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .disable(YAMLGenerator.Feature.SPLIT_LINES));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {
    };

    /**
     * @param version the release (the chart's appVersion)
     * @param release skipRange, replaces, channel
     * @param csvBase the hand-written CSV part
     * @param crd the generated CRD, verbatim
     * @param clusterRules the generated ClusterRole's rules
     * @param namespacedRules the generated Role's rules (the operator's own namespace)
     * @param rendered everything the chart renders for OLM: the operator's Deployment and the
     *        component operators' (with their ServiceAccounts, RBAC and CRDs), the ServiceMonitor
     * @param alertRules the PrometheusRule spec (groups)
     * @param example an example HyperConverged for alm-examples
     */
    /**
     * @param componentRelease the release file (packaging/release.yaml): every image the component
     *        operators can pull, for relatedImages
     * @param componentOperators how each component operator is deployed
     *        (helm/hco-operator/files/component-operators.yaml): the webhooks OLM serves certificates for
     */
    public record Inputs(String version, Properties release, String csvBase, String crd, List<Object> clusterRules,
            List<Object> namespacedRules, List<Map<String, Object>> rendered, String alertRules, String example,
            Map<String, Object> componentRelease, Map<String, Object> componentOperators) {

        public Map<String, Object> deployment() {
            return named(rendered, "Deployment", PACKAGE);
        }

        public Map<String, Object> serviceMonitor() {
            return named(rendered, "ServiceMonitor", PACKAGE);
        }

        /** The component operators' Deployments, in the chart's order. */
        public List<Map<String, Object>> componentDeployments() {
            return rendered.stream().filter(d -> "Deployment".equals(d.get("kind"))
                    && !PACKAGE.equals(child(d, "metadata").get("name"))).toList();
        }

        /** The PriorityClasses the component operators' pods use. */
        public List<Map<String, Object>> priorityClasses() {
            return rendered.stream().filter(d -> "PriorityClass".equals(d.get("kind"))).toList();
        }

        /** The component CRDs the release installs. */
        public List<Map<String, Object>> componentCrds() {
            return rendered.stream().filter(d -> "CustomResourceDefinition".equals(d.get("kind"))
                    && !"hyperconvergeds.hco.kubevirt.io".equals(child(d, "metadata").get("name"))).toList();
        }
    }

    private static Map<String, Object> named(List<Map<String, Object>> docs, String kind, String name) {
        return docs.stream().filter(d -> kind.equals(d.get("kind")) && name.equals(child(d, "metadata").get("name")))
                .findFirst().orElseThrow(() -> new IllegalStateException("the chart rendered no " + kind + " " + name));
    }

    private BundleGenerator() {
    }

    /** Bundle-relative path → file content. */
    public static Map<String, String> generate(Inputs in) throws IOException {
        Map<String, String> files = new TreeMap<>();
        String csvName = PACKAGE + ".v" + in.version();
        Map<String, Object> deployment = platformDetectedAtRunTime(olmManaged(in.deployment()));
        files.put("manifests/" + PACKAGE + ".clusterserviceversion.yaml", yaml(csv(in, csvName, deployment)));
        files.put("manifests/hyperconvergeds.hco.kubevirt.io.crd.yaml", v1beta1Only(in.crd()));
        for (Map<String, Object> crd : in.componentCrds()) {
            files.put("manifests/" + child(crd, "metadata").get("name") + ".crd.yaml", yaml(olmObject(crd)));
        }
        for (Map<String, Object> pc : in.priorityClasses()) {
            files.put("manifests/" + child(pc, "metadata").get("name") + "_scheduling.k8s.io_v1_priorityclass.yaml",
                    yaml(olmObject(pc)));
        }
        files.put("manifests/hco-operator-metrics_v1_service.yaml", yaml(metricsService(deployment)));
        files.put("manifests/hco-operator-metrics-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml",
                yaml(metricsReaderRole()));
        files.put("manifests/hco-operator_monitoring.coreos.com_v1_prometheusrule.yaml",
                yaml(prometheusRule(in.alertRules())));
        // Prometheus scrapes with the scraper ServiceAccount's token, as with the chart: OLM creates
        // the ServiceAccount and its get on /metrics from the CSV's clusterPermissions, the operator
        // keeps its token Secret
        files.put("manifests/hco-operator_monitoring.coreos.com_v1_servicemonitor.yaml",
                yaml(olmObject(in.serviceMonitor())));
        files.put("metadata/annotations.yaml", yaml(Map.of("annotations", annotations(in.release()))));
        files.put("bundle.Dockerfile", dockerfile(annotations(in.release())));
        return files;
    }

    private static Map<String, Object> csv(Inputs in, String csvName, Map<String, Object> deployment) throws IOException {
        Map<String, Object> csv = YAML.readValue(in.csvBase(), MAP);
        Map<String, Object> metadata = child(csv, "metadata");
        metadata.put("name", csvName);
        Map<String, Object> annotations = child(metadata, "annotations");
        annotations.put("alm-examples", JSON.writerWithDefaultPrettyPrinter()
                .writeValueAsString(List.of(YAML.readValue(in.example(), MAP))));
        annotations.put("containerImage", image(deployment));
        annotations.put("olm.skipRange", in.release().getProperty("skipRange"));
        annotations.put("operators.operatorframework.io/builder", "hco-operator BundleGenerator");
        Map<String, Object> spec = child(csv, "spec");
        spec.put("version", in.version());
        String homepage = in.release().getProperty("homepage", "").trim();
        if (!homepage.isEmpty()) {
            annotations.put("repository", homepage);
            spec.put("links", List.of(Map.of("name", "Source", "url", homepage)));
        }
        String maintainer = in.release().getProperty("maintainerName", "").trim();
        String email = in.release().getProperty("maintainerEmail", "").trim();
        if (!maintainer.isEmpty() && !email.isEmpty()) {
            spec.put("maintainers", List.of(Map.of("name", maintainer, "email", email)));
        }
        String replaces = in.release().getProperty("replaces", "").trim();
        if (!replaces.isEmpty()) {
            spec.put("replaces", replaces);
        }
        ownedCrd(spec, in.crd());
        ownedComponentCrds(spec, annotations, in.componentCrds());
        List<Map<String, Object>> components = new ArrayList<>();
        for (Map<String, Object> d : in.componentDeployments()) {
            components.add(olmManaged(d));
        }
        Map<String, Object> install = install(deployment, in.clusterRules(), in.namespacedRules());
        addComponentOperators(child(install, "spec"), components, in.rendered());
        spec.put("install", install);
        List<Object> webhooks = webhookDefinitions(in.componentOperators(), components);
        if (!webhooks.isEmpty()) {
            spec.put("webhookdefinitions", webhooks);
        }
        spec.put("relatedImages", relatedImages(deployment, in.componentRelease()));
        return csv;
    }

    @SuppressWarnings("unchecked")
    private static void ownedCrd(Map<String, Object> spec, String crdYaml) throws IOException {
        Map<String, Object> crd = YAML.readValue(crdYaml, MAP);
        List<Map<String, Object>> versions = (List<Map<String, Object>>) child(crd, "spec").get("versions");
        String storage = versions.stream().filter(v -> Boolean.TRUE.equals(v.get("storage")))
                .map(v -> (String) v.get("name")).findFirst().orElseThrow();
        List<Map<String, Object>> owned = (List<Map<String, Object>>) child(spec, "customresourcedefinitions")
                .get("owned");
        Map<String, Object> hco = owned.get(0);
        hco.put("version", storage);
        List<Map<String, Object>> resources = new ArrayList<>();
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("kind", d.kind());
            r.put("name", d.plural() + "." + d.group());
            r.put("version", d.version());
            resources.add(r);
        }
        hco.put("resources", resources);
    }

    /**
     * The component CRDs as owned by this CSV (one release owns the whole stack's APIs), hidden from
     * the console's list of what users create: the HyperConverged is the one API to use.
     */
    @SuppressWarnings("unchecked")
    private static void ownedComponentCrds(Map<String, Object> spec, Map<String, Object> annotations,
            List<Map<String, Object>> crds) {
        List<Map<String, Object>> owned = (List<Map<String, Object>>) child(spec, "customresourcedefinitions")
                .get("owned");
        List<String> internal = new ArrayList<>();
        for (Map<String, Object> crd : crds) {
            Map<String, Object> crdSpec = child(crd, "spec");
            String kind = (String) child(crdSpec, "names").get("kind");
            String name = (String) child(crd, "metadata").get("name");
            for (Map<String, Object> version : (List<Map<String, Object>>) crdSpec.get("versions")) {
                if (!Boolean.TRUE.equals(version.get("served"))) {
                    continue;
                }
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("name", name);
                entry.put("version", version.get("name"));
                entry.put("kind", kind);
                entry.put("displayName", kind);
                entry.put("description", kind + " of the stack, written by hco-operator from the HyperConverged");
                owned.add(entry);
            }
            internal.add(name);
        }
        try {
            annotations.put("operators.operatorframework.io/internal-objects", JSON.writeValueAsString(internal));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The component operators' Deployments beside the operator's, and the permissions each
     * ServiceAccount is bound to in the chart: ClusterRoles as clusterPermissions, Roles as
     * permissions (what OLM grants from a CSV).
     */
    @SuppressWarnings("unchecked")
    private static void addComponentOperators(Map<String, Object> strategy, List<Map<String, Object>> deployments,
            List<Map<String, Object>> rendered) {
        List<Object> all = (List<Object>) strategy.get("deployments");
        List<Object> cluster = (List<Object>) strategy.get("clusterPermissions");
        List<Object> namespaced = (List<Object>) strategy.get("permissions");
        for (Map<String, Object> d : deployments) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", child(d, "metadata").get("name"));
            entry.put("label", child(d, "metadata").get("labels"));
            entry.put("spec", d.get("spec"));
            all.add(entry);
            String sa = (String) child(child(child(d, "spec"), "template"), "spec").get("serviceAccountName");
            cluster.add(boundRules(rendered, sa, "ClusterRoleBinding", "ClusterRole"));
            namespaced.add(boundRules(rendered, sa, "RoleBinding", "Role"));
        }
    }

    /** The rules of every role of {@code roleKind} that a {@code bindingKind} binds to ServiceAccount {@code sa}. */
    private static Map<String, Object> boundRules(List<Map<String, Object>> rendered, String sa, String bindingKind,
            String roleKind) {
        Map<String, Object> permission = new LinkedHashMap<>();
        permission.put("serviceAccountName", sa);
        permission.put("rules", rulesBoundTo(rendered, sa, bindingKind, roleKind));
        return permission;
    }

    /** As above, the rules only (ComponentRbacAuditIT reads the chart's render with it). */
    @SuppressWarnings("unchecked")
    public static List<Object> rulesBoundTo(List<Map<String, Object>> rendered, String sa, String bindingKind,
            String roleKind) {
        List<Object> rules = new ArrayList<>();
        for (Map<String, Object> binding : rendered) {
            if (!bindingKind.equals(binding.get("kind")) || !((List<Map<String, Object>>) binding.get("subjects"))
                    .stream().anyMatch(s -> "ServiceAccount".equals(s.get("kind")) && sa.equals(s.get("name")))) {
                continue;
            }
            String role = (String) ((Map<String, Object>) binding.get("roleRef")).get("name");
            rules.addAll((List<Object>) named(rendered, roleKind, role).get("rules"));
        }
        return rules;
    }

    /**
     * Every image the release can pull: this operator's and the release file's list (each component
     * operator's image and every operand image it is told about). Disconnected installs mirror
     * exactly these.
     */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> relatedImages(Map<String, Object> operator,
            Map<String, Object> componentRelease) {
        List<Map<String, Object>> images = new ArrayList<>();
        Map<String, Object> own = new LinkedHashMap<>();
        own.put("name", child(operator, "metadata").get("name"));
        own.put("image", image(operator));
        images.add(own);
        for (Map<String, Object> related : (List<Map<String, Object>>) componentRelease.get("relatedImages")) {
            images.add(new LinkedHashMap<>(related));
        }
        return images;
    }

    /**
     * The admission webhooks a component operator serves itself, as upstream's CSV declares them:
     * OLM makes their Service and certificate and mounts it where the operator looks
     * (/apiserver.local.config/certificates), which the chart does by itself otherwise.
     */
    @SuppressWarnings("unchecked")
    private static List<Object> webhookDefinitions(Map<String, Object> operators, List<Map<String, Object>> deployments) {
        List<Object> definitions = new ArrayList<>();
        for (Map<String, Object> d : deployments) {
            Object name = child(d, "metadata").get("name");
            for (Object o : operators.values()) {
                Map<String, Object> op = (Map<String, Object>) o;
                if (name.equals(op.get("deployment")) && op.get("webhooks") instanceof List<?> hooks) {
                    definitions.addAll(hooks);
                }
            }
        }
        return definitions;
    }

    private static Map<String, Object> permission(Map<String, Object> podSpec, List<Object> rules) {
        Map<String, Object> permission = new LinkedHashMap<>();
        permission.put("serviceAccountName", podSpec.get("serviceAccountName"));
        permission.put("rules", rules);
        return permission;
    }

    private static Map<String, Object> install(Map<String, Object> deployment, List<Object> clusterRules,
            List<Object> namespacedRules) {
        Map<String, Object> podSpec = child(child(child(deployment, "spec"), "template"), "spec");
        Map<String, Object> dep = new LinkedHashMap<>();
        dep.put("name", child(deployment, "metadata").get("name"));
        dep.put("label", child(deployment, "metadata").get("labels"));
        dep.put("spec", deployment.get("spec"));
        Map<String, Object> strategy = new LinkedHashMap<>();
        Map<String, Object> scrape = new LinkedHashMap<>();
        scrape.put("nonResourceURLs", List.of("/metrics"));
        scrape.put("verbs", List.of("get"));
        Map<String, Object> scraper = new LinkedHashMap<>();
        scraper.put("serviceAccountName", SCRAPER);
        scraper.put("rules", List.of(scrape));
        strategy.put("clusterPermissions", new ArrayList<>(List.of(permission(podSpec, clusterRules), scraper)));
        strategy.put("permissions", new ArrayList<>(List.of(permission(podSpec, namespacedRules))));
        strategy.put("deployments", new ArrayList<>(List.of(dep)));
        Map<String, Object> install = new LinkedHashMap<>();
        install.put("strategy", "deployment");
        install.put("spec", strategy);
        return install;
    }

    static final String SCRAPER = "hco-operator-metrics-scraper";

    /** An object rendered from the chart, as OLM manages it: no release namespace, no Helm labels. */
    private static Map<String, Object> olmObject(Map<String, Object> rendered) throws IOException {
        Map<String, Object> o = JSON.readValue(JSON.writeValueAsString(rendered), MAP);
        Map<String, Object> metadata = child(o, "metadata");
        metadata.remove("namespace");
        Map<String, Object> labels = child(metadata, "labels");
        labels.remove("helm.sh/chart");
        labels.put("app.kubernetes.io/managed-by", "olm");
        if (metadata.get("annotations") instanceof Map<?, ?> annotations) {
            annotations.remove("helm.sh/resource-policy");
            if (annotations.isEmpty()) {
                metadata.remove("annotations");
            }
        }
        return o;
    }

    /**
     * The CRD with v1 not served: without a conversion webhook (see BuildOutputs) the API server would
     * store v1 objects as v1beta1 unconverted, and prune what v1beta1 does not know.
     */
    @SuppressWarnings("unchecked")
    static String v1beta1Only(String crdYaml) throws IOException {
        Map<String, Object> crd = YAML.readValue(crdYaml, MAP);
        for (Map<String, Object> version : (List<Map<String, Object>>) child(crd, "spec").get("versions")) {
            if (!"v1beta1".equals(version.get("name"))) {
                version.put("served", false);
            }
        }
        return yaml(crd);
    }

    /**
     * OLM installs the same CSV on any cluster, so what the chart decides at install time (SSP on
     * OpenShift only) the operator decides at run time: SSP's setting is auto in the bundle.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> platformDetectedAtRunTime(Map<String, Object> deployment) {
        Map<String, Object> container = ((List<Map<String, Object>>) child(child(child(deployment, "spec"), "template"),
                "spec").get("containers")).get(0);
        for (Map<String, Object> env : (List<Map<String, Object>>) container.get("env")) {
            if ("HCO_COMPONENT_SSP".equals(env.get("name"))) {
                env.put("value", "auto");
            }
        }
        return deployment;
    }

    /** The chart's Deployment, relabelled as OLM-managed and without the Helm release namespace. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> olmManaged(Map<String, Object> rendered) throws IOException {
        Map<String, Object> d = JSON.readValue(JSON.writeValueAsString(rendered), MAP);
        child(d, "metadata").remove("namespace");
        for (Map<String, Object> labels : List.of(child(child(d, "metadata"), "labels"),
                child(child(child(child(d, "spec"), "template"), "metadata"), "labels"))) {
            labels.put("app.kubernetes.io/managed-by", "olm");
        }
        return d;
    }

    @SuppressWarnings("unchecked")
    private static String image(Map<String, Object> deployment) {
        List<Map<String, Object>> containers = (List<Map<String, Object>>) child(child(child(deployment, "spec"),
                "template"), "spec").get("containers");
        return (String) containers.get(0).get("image");
    }

    private static Map<String, Object> metricsService(Map<String, Object> deployment) {
        Map<String, Object> selector = child(child(deployment, "spec"), "selector");
        Map<String, Object> port = new LinkedHashMap<>();
        port.put("name", "management");
        port.put("port", 9000);
        port.put("targetPort", "management");
        port.put("protocol", "TCP");
        Map<String, Object> spec = new LinkedHashMap<>();
        // scraped whatever readiness says: a not-ready operator is exactly the one to watch
        spec.put("publishNotReadyAddresses", true);
        spec.put("selector", selector.get("matchLabels"));
        spec.put("ports", List.of(port));
        Map<String, Object> service = object("v1", "Service", "hco-operator-metrics", spec, "spec");
        // the ServiceMonitor selects the Service by the same labels the Service selects the pods by
        child(service, "metadata").put("labels", selector.get("matchLabels"));
        return service;
    }

    private static Map<String, Object> metricsReaderRole() {
        Map<String, Object> rule = new LinkedHashMap<>();
        rule.put("nonResourceURLs", List.of("/metrics"));
        rule.put("verbs", List.of("get"));
        // bind it to Prometheus' ServiceAccount: the management port checks get on /metrics
        return object("rbac.authorization.k8s.io/v1", "ClusterRole", "hco-operator-metrics-reader", List.of(rule),
                "rules");
    }

    private static Map<String, Object> prometheusRule(String alertRules) throws IOException {
        return object("monitoring.coreos.com/v1", "PrometheusRule", "hco-operator", YAML.readValue(alertRules, MAP),
                "spec");
    }

    private static Map<String, Object> object(String apiVersion, String kind, String name, Object body, String field) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("apiVersion", apiVersion);
        o.put("kind", kind);
        // insertion-ordered throughout: Map.of iterates in a different order in every JVM
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        metadata.put("labels", Map.of("app.kubernetes.io/name", PACKAGE));
        o.put("metadata", metadata);
        o.put(field, body);
        return o;
    }

    private static Map<String, Object> annotations(Properties release) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("operators.operatorframework.io.bundle.mediatype.v1", "registry+v1");
        a.put("operators.operatorframework.io.bundle.manifests.v1", "manifests/");
        a.put("operators.operatorframework.io.bundle.metadata.v1", "metadata/");
        a.put("operators.operatorframework.io.bundle.package.v1", PACKAGE);
        a.put("operators.operatorframework.io.bundle.channels.v1", release.getProperty("channel"));
        a.put("operators.operatorframework.io.bundle.channel.default.v1", release.getProperty("channel"));
        return a;
    }

    private static String dockerfile(Map<String, Object> annotations) {
        StringBuilder b = new StringBuilder("# Generated by BundleGenerator (see docs/install.md, \"Install with OLM\"). Build from bundle/:\n")
                .append("#   docker build -f bundle.Dockerfile -t <registry>/hco-operator-bundle:<version> .\n")
                .append("FROM scratch\n\n");
        annotations.forEach((k, v) -> b.append("LABEL ").append(k).append('=').append(v).append('\n'));
        return b.append("\nCOPY manifests /manifests/\nCOPY metadata /metadata/\n").toString();
    }

    private static String yaml(Object o) throws IOException {
        return YAML.writeValueAsString(o);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> child(Map<String, Object> parent, String key) {
        return (Map<String, Object>) parent.computeIfAbsent(key, k -> new LinkedHashMap<>());
    }
}
