package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.simulator.ComponentCrds;

/**
 * Puts a fresh API server in the state an installation leaves: the operator's generated CRD, the
 * component CRDs (minimal, ours), OLM's real OperatorCondition CRD, the namespace, and the
 * ServiceAccount with exactly the RBAC from the project's generated manifests.
 */
public final class ClusterSetup {

    static final Path GENERATED = Path.of("target/kubernetes");
    static final String SERVICE_ACCOUNT = "hco-operator";

    private ClusterSetup() {
    }

    public static void installCrds(KubernetesClient admin) throws IOException {
        apply(admin, load(admin, GENERATED.resolve("hyperconvergeds.hco.kubevirt.io-v1.yml")));
        apply(admin, load(admin, E2eBinaries.get().olmCrds().resolve("operators.coreos.com_operatorconditions.yaml")));
        ComponentCrds.installComponents(admin);
        waitEstablished(admin);
    }

    /** Every OLM CRD (ClusterServiceVersion, Subscription, ...) and prometheus-operator's monitoring CRDs. */
    public static void installOlmAndMonitoringCrds(KubernetesClient admin) throws IOException {
        for (Path dir : List.of(E2eBinaries.get().olmCrds(), E2eBinaries.get().prometheusOperatorCrds())) {
            try (var files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                    apply(admin, load(admin, file));
                }
            }
        }
        waitEstablished(admin);
    }

    private static void waitEstablished(KubernetesClient admin) {
        for (CustomResourceDefinition crd : admin.apiextensions().v1().customResourceDefinitions().list().getItems()) {
            admin.apiextensions().v1().customResourceDefinitions().resource(crd).waitUntilCondition(
                    c -> c.getStatus() != null && c.getStatus().getConditions() != null && c.getStatus().getConditions().stream()
                            .anyMatch(k -> "Established".equals(k.getType()) && "True".equals(k.getStatus())),
                    30, TimeUnit.SECONDS);
        }
    }

    public static void createNamespace(KubernetesClient admin, String namespace) {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
                .createOr(n -> n.update());
    }

    /** Creates the namespace and the operator's ServiceAccount + RBAC; returns a token for that ServiceAccount. */
    public static String installOperatorIdentity(KubernetesClient admin, String namespace) throws IOException {
        createNamespace(admin, namespace);
        for (HasMetadata item : load(admin, GENERATED.resolve("kubernetes.yml"))) {
            if (item instanceof ServiceAccount || item instanceof Role || item instanceof RoleBinding) {
                item.getMetadata().setNamespace(namespace);
            }
            List<Subject> subjects = item instanceof ClusterRoleBinding crb ? crb.getSubjects()
                    : item instanceof RoleBinding rb ? rb.getSubjects() : List.of();
            subjects.forEach(s -> s.setNamespace(namespace));
            if (item instanceof ServiceAccount || item instanceof ClusterRole || item instanceof ClusterRoleBinding
                    || item instanceof Role || item instanceof RoleBinding) {
                admin.resource(item).createOr(existing -> existing.update());
            }
        }
        return token(admin, namespace);
    }

    /** Creates the object a YAML manifest describes (an admission policy, its binding...) and returns it as created. */
    public static HasMetadata create(KubernetesClient admin, String yaml) {
        return admin.resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal(yaml, HasMetadata.class)).create();
    }

    /** The non-resource rule Prometheus needs on the management port when metrics auth is on. */
    static final List<PolicyRule> METRICS_READER = List.of(new PolicyRuleBuilder().withNonResourceURLs("/metrics")
            .withVerbs("get").build());

    /**
     * Grants {@code rules} to ServiceAccount {@code namespace/serviceAccount} (created if missing)
     * through a ClusterRole and ClusterRoleBinding both named {@code role}; returns a token for it.
     */
    /**
     * Like {@link #grant(KubernetesClient, String, String, String, List)}, plus {@code namespacedRules}
     * in {@code namespace} only, through a Role and RoleBinding named {@code role}.
     */
    static String grant(KubernetesClient admin, String namespace, String serviceAccount, String role,
            List<PolicyRule> clusterRules, List<PolicyRule> namespacedRules) {
        admin.rbac().roles().inNamespace(namespace).resource(new io.fabric8.kubernetes.api.model.rbac.RoleBuilder()
                .withNewMetadata().withName(role).endMetadata().withRules(namespacedRules).build()).create();
        admin.rbac().roleBindings().inNamespace(namespace).resource(
                new io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder().withNewMetadata().withName(role)
                        .endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", role).addNewSubject()
                        .withKind("ServiceAccount").withName(serviceAccount).withNamespace(namespace).endSubject()
                        .build())
                .create();
        return grant(admin, namespace, serviceAccount, role, clusterRules);
    }

    static String grant(KubernetesClient admin, String namespace, String serviceAccount, String role,
            List<PolicyRule> rules) {
        admin.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName(serviceAccount).endMetadata().build()).createOr(existing -> existing.update());
        admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName(role).endMetadata()
                .withRules(rules).build()).create();
        admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata().withName(role)
                .endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", role).addNewSubject()
                .withKind("ServiceAccount").withName(serviceAccount).withNamespace(namespace).endSubject().build())
                .create();
        return token(admin, namespace, serviceAccount);
    }

    static String token(KubernetesClient admin, String namespace) {
        return token(admin, namespace, SERVICE_ACCOUNT);
    }

    static String token(KubernetesClient admin, String namespace, String serviceAccount) {
        return admin.serviceAccounts().inNamespace(namespace).withName(serviceAccount)
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L)
                        .withAudiences("https://kubernetes.default.svc").endSpec().build())
                .getStatus().getToken();
    }

    private static List<HasMetadata> load(KubernetesClient admin, Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new IOException(file + " is missing: the e2e suite runs after `mvn package` generated it");
        }
        try (InputStream in = Files.newInputStream(file)) {
            return admin.load(in).items();
        }
    }

    private static void apply(KubernetesClient admin, List<HasMetadata> items) {
        items.forEach(i -> admin.resource(i).createOr(existing -> existing.update()));
    }

    /**
     * OpenShift's templates API (template.openshift.io/v1), which is what makes SSP part of a stack
     * on auto: the cluster then looks like OpenShift to the operator and to Helm.
     */
    static void serveOpenShiftTemplates(KubernetesClient admin) {
        admin.apiextensions().v1().customResourceDefinitions().resource(
                new io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder().withNewMetadata()
                        .withName("templates.template.openshift.io").endMetadata().withNewSpec()
                        .withGroup("template.openshift.io").withScope("Namespaced").withNewNames().withKind("Template")
                        .withPlural("templates").endNames().addNewVersion().withName("v1").withServed(true)
                        .withStorage(true).withNewSchema().withOpenAPIV3Schema(
                                new io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder()
                                        .withType("object").withXKubernetesPreserveUnknownFields(true).build())
                        .endSchema().endVersion().endSpec().build()).create();
        org.awaitility.Awaitility.await("templates API served").atMost(java.time.Duration.ofSeconds(30))
                .until(() -> admin.getApiGroup("template.openshift.io") != null);
    }
}
