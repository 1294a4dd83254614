package io.kubevirt.hco.simulator;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;

/**
 * Minimal CRDs for the component kinds and OLM's OperatorCondition: the real ones belong to their
 * operators; tests and the demo only need the kinds to exist, with a status subresource.
 */
public final class MinimalCrds {

    private MinimalCrds() {
    }

    public static void install(KubernetesClient client) {
        installComponents(client);
        apply(client, crd("operators.coreos.com", "v2", "OperatorCondition", "operatorconditions", true));
    }

    public static void installComponents(KubernetesClient client) {
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            apply(client, crd(d.group(), d.version(), d.kind(), d.plural(), d.namespaced()));
        }
    }

    static CustomResourceDefinition crd(String group, String version, String kind, String plural, boolean namespaced) {
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName(plural + "." + group).endMetadata()
                .withNewSpec().withGroup(group).withScope(namespaced ? "Namespaced" : "Cluster")
                .withNewNames().withKind(kind).withPlural(plural).withSingular(kind.toLowerCase()).endNames()
                .addNewVersion().withName(version).withServed(true).withStorage(true)
                .withNewSubresources().withNewStatus().endStatus().endSubresources()
                .withNewSchema().withOpenAPIV3Schema(new JSONSchemaPropsBuilder().withType("object")
                        .withXKubernetesPreserveUnknownFields(true).build())
                .endSchema().endVersion().endSpec().build();
    }

    private static void apply(KubernetesClient client, CustomResourceDefinition crd) {
        client.apiextensions().v1().customResourceDefinitions().resource(crd).createOr(existing -> existing.update());
    }
}
