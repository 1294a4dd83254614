package io.kubevirt.hco.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The component CRDs: served by the simulated component operators, and shipped in the release (the
 * OLM bundle owns them, the Helm chart installs them). They are the chart's (resources
 * {@code component-crds/}, copied from helm/hco-operator/files/component-crds by the build), generated
 * from the components' Go modules and equal to upstream HCO v1.16.0's (ComponentCrdsIT): unknown
 * fields are pruned, defaults applied, CDI has no status subresource — as on a real cluster.
 * OLM's OperatorCondition gets a minimal CRD here (the e2e suite installs OLM's own).
 */
public final class ComponentCrds {

    private ComponentCrds() {
    }

    public static void install(KubernetesClient client) {
        installComponents(client);
        apply(client, operatorCondition());
    }

    public static void installComponents(KubernetesClient client) {
        for (SimulatedComponent d : SimulatedComponent.ALL) {
            apply(client, of(client, d));
        }
    }

    /** The project's CRD of that component, as shipped in the resources. */
    public static CustomResourceDefinition of(KubernetesClient client, SimulatedComponent d) {
        String resource = "component-crds/" + d.crdName() + ".yaml";
        try (InputStream in = ComponentCrds.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static CustomResourceDefinition operatorCondition() {
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName("operatorconditions.operators.coreos.com").endMetadata()
                .withNewSpec().withGroup("operators.coreos.com").withScope("Namespaced")
                .withNewNames().withKind("OperatorCondition").withPlural("operatorconditions")
                .withSingular("operatorcondition").endNames()
                .addNewVersion().withName("v2").withServed(true).withStorage(true)
                .withNewSubresources().withNewStatus().endStatus().endSubresources()
                .withNewSchema().withOpenAPIV3Schema(new JSONSchemaPropsBuilder().withType("object")
                        .withXKubernetesPreserveUnknownFields(true).build())
                .endSchema().endVersion().endSpec().build();
    }

    private static void apply(KubernetesClient client, CustomResourceDefinition crd) {
        crd.getMetadata().setResourceVersion(null);
        client.apiextensions().v1().customResourceDefinitions().resource(crd).createOr(existing -> existing.update());
    }
}
