package io.kubevirt.hco.components;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * Client access to a component's CRs, from the descriptor alone. The full resource definition
 * (plural, scope) is given so that no API discovery is needed: it works before the component's
 * CRD is discoverable and against API servers without discovery.
 */
public final class ComponentResources {

    private ComponentResources() {
    }

    public static ResourceDefinitionContext definition(ComponentDescriptor d) {
        return new ResourceDefinitionContext.Builder().withGroup(d.group()).withVersion(d.version())
                .withKind(d.kind()).withPlural(d.plural()).withNamespaced(d.namespaced()).build();
    }

    /** The CRs of that component: in {@code namespace} when namespaced, cluster-wide otherwise. */
    public static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> of(
            KubernetesClient client, ComponentDescriptor d, String namespace) {
        var all = client.genericKubernetesResources(definition(d));
        return d.namespaced() ? all.inNamespace(namespace) : all;
    }

    /** The one CR of that component this operator manages. */
    public static Resource<GenericKubernetesResource> managed(KubernetesClient client, ComponentDescriptor d,
            String namespace) {
        return of(client, d, namespace).withName(d.crName());
    }
}
