package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.kubevirt.hco.Repo;
import io.kubevirt.hco.packaging.BundleGenerator;

/**
 * Every permission upstream HCO v1.16.0's CSV grants a component operator's ServiceAccount
 * (clusterPermissions and permissions) is granted to ours, in what the chart renders and in the
 * bundle's CSV: each rule is split into single (API group, resource, verb) or (URL, verb) grants,
 * each checked against our rules with wildcards as RBAC reads them. {@link #NARROWED} lists the
 * grants deliberately not given, each with why that is safe; it is empty.
 */
class ComponentRbacAuditIT {

    static final List<String> SERVICE_ACCOUNTS = List.of("kubevirt-operator", "cdi-operator",
            "cluster-network-addons-operator", "ssp-operator");

    /** "serviceAccount scope grant" → why it is safe not to grant it. */
    static final Map<String, String> NARROWED = Map.of();

    record Grant(String group, String resource, String name, String verb) {
        @Override
        public String toString() {
            return (group == null ? "url " : group.isEmpty() ? "core/" : group + "/") + resource
                    + (name == null ? "" : "[" + name + "]") + " " + verb;
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyUpstreamGrantIsOursInTheChartAndTheBundle() throws Exception {
        Map<String, Object> upstream = BundleGenerator.YAML.readValue(Repo.path(
                "packaging/upstream/v1.16.0/kubevirt-hyperconverged-operator.v1.16.0.clusterserviceversion.yaml").toFile(),
                Map.class);
        Map<String, Object> ours = BundleGenerator.YAML.readValue(Repo.path(
                "bundle/manifests/hco-operator.clusterserviceversion.yaml").toFile(), Map.class);
        List<Map<String, Object>> rendered = BuildOutputs.bundleInputs().rendered();
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (String sa : SERVICE_ACCOUNTS) {
            for (String scope : List.of("clusterPermissions", "permissions")) {
                List<Grant> wanted = grants(rules(upstream, scope, sa));
                List<Object> bundleRules = rules(ours, scope, sa);
                boolean cluster = scope.equals("clusterPermissions");
                List<Object> chartRules = BundleGenerator.rulesBoundTo(rendered, sa,
                        cluster ? "ClusterRoleBinding" : "RoleBinding", cluster ? "ClusterRole" : "Role");
                for (Grant g : wanted) {
                    checked++;
                    if (NARROWED.containsKey(sa + " " + scope + " " + g)) {
                        continue;
                    }
                    if (!covered(g, bundleRules)) {
                        missing.add("bundle: " + sa + " " + scope + ": " + g);
                    }
                    if (!covered(g, chartRules)) {
                        missing.add("chart: " + sa + " " + scope + ": " + g);
                    }
                }
            }
        }
        System.out.printf("[rbac] %d upstream grants checked for %d ServiceAccounts, %d narrowed%n", checked,
                SERVICE_ACCOUNTS.size(), NARROWED.size());
        assertThat(checked).isGreaterThan(500);
        assertThat(missing).isEmpty();
    }

    @Test
    void aMissingVerbIsFound() {
        Map<String, Object> rule = Map.of("apiGroups", List.of("batch"), "resources", List.of("jobs"),
                "verbs", List.of("get", "list"));
        assertThat(covered(new Grant("batch", "jobs", null, "watch"), List.of(rule))).isFalse();
        assertThat(covered(new Grant("batch", "jobs", null, "list"), List.of(rule))).isTrue();
        assertThat(covered(new Grant("batch", "jobs", null, "list"),
                List.of(Map.of("apiGroups", List.of("*"), "resources", List.of("*"), "verbs", List.of("*"))))).isTrue();
        assertThat(covered(new Grant("", "secrets", "x", "get"), List.of(Map.of("apiGroups", List.of(""),
                "resources", List.of("secrets"), "resourceNames", List.of("y"), "verbs", List.of("get"))))).isFalse();
    }

    @SuppressWarnings("unchecked")
    static List<Object> rules(Map<String, Object> csv, String scope, String sa) {
        Map<String, Object> strategy = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) csv
                .get("spec")).get("install")).get("spec");
        List<Object> rules = new ArrayList<>();
        for (Map<String, Object> p : (List<Map<String, Object>>) strategy.getOrDefault(scope, List.of())) {
            if (sa.equals(p.get("serviceAccountName"))) {
                rules.addAll((List<Object>) p.get("rules"));
            }
        }
        return rules;
    }

    @SuppressWarnings("unchecked")
    static List<Grant> grants(List<Object> rules) {
        List<Grant> grants = new ArrayList<>();
        for (Object o : rules) {
            Map<String, Object> r = (Map<String, Object>) o;
            List<String> verbs = (List<String>) r.get("verbs");
            if (r.get("nonResourceURLs") instanceof List<?> urls) {
                for (Object u : urls) {
                    verbs.forEach(v -> grants.add(new Grant(null, (String) u, null, v)));
                }
                continue;
            }
            List<String> names = (List<String>) r.get("resourceNames");
            for (String g : (List<String>) r.getOrDefault("apiGroups", List.of(""))) {
                for (String res : (List<String>) r.get("resources")) {
                    for (String v : verbs) {
                        if (names == null || names.isEmpty()) {
                            grants.add(new Grant(g, res, null, v));
                        } else {
                            names.forEach(n -> grants.add(new Grant(g, res, n, v)));
                        }
                    }
                }
            }
        }
        return grants;
    }

    /** Whether one of {@code rules} grants {@code g}, with wildcards as the RBAC authorizer reads them. */
    @SuppressWarnings("unchecked")
    static boolean covered(Grant g, List<Object> rules) {
        for (Object o : rules) {
            Map<String, Object> r = (Map<String, Object>) o;
            List<String> verbs = (List<String>) r.getOrDefault("verbs", List.of());
            if (!verbs.contains("*") && !verbs.contains(g.verb())) {
                continue;
            }
            if (g.group() == null) {
                List<String> urls = (List<String>) r.getOrDefault("nonResourceURLs", List.of());
                if (urls.stream().anyMatch(u -> u.equals(g.resource()) || u.equals("*")
                        || (u.endsWith("*") && g.resource().startsWith(u.substring(0, u.length() - 1))))) {
                    return true;
                }
                continue;
            }
            List<String> groups = (List<String>) r.getOrDefault("apiGroups", List.of());
            List<String> resources = (List<String>) r.getOrDefault("resources", List.of());
            List<String> names = (List<String>) r.getOrDefault("resourceNames", List.of());
            boolean group = groups.contains("*") || groups.contains(g.group());
            boolean resource = resources.contains("*") || resources.contains(g.resource())
                    || (g.resource().contains("/") && resources.contains("*/" + g.resource().split("/", 2)[1]));
            boolean name = names.isEmpty() || (g.name() != null && names.contains(g.name()));
            if (group && resource && name) {
                return true;
            }
        }
        return false;
    }

}
