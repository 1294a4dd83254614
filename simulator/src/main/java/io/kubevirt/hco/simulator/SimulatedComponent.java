package io.kubevirt.hco.simulator;

import java.util.List;
import java.util.Optional;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * One real component operator as the simulator plays it, written from its published CRD and its
 * shipped Deployment (not from hco-operator's descriptors, which the simulator exists to check):
 * where its CR lives, which status fields it writes, whether it reports
 * {@code status.observedGeneration}, which condition field carries its heartbeat, the image its
 * Deployment runs and the env var that image reads its own version from.
 *
 * @param crName the CR hco-operator creates for it (the one the simulated operator reconciles)
 * @param image the image repository's last path segment (virt-operator, cdi-operator, …)
 * @param versionEnv the env var the real image reads its version from (virt-operator:
 *        KUBEVIRT_VERSION; the others: OPERATOR_VERSION)
 * @param heartbeatField the condition field stamped on every status write; null when none
 *        (cluster-network-addons v0.100.0 sets its conditions without a heartbeat)
 * @param renderedPaths the spec fields (dotted) the operator renders into its operands; null: all.
 *        A change elsewhere rolls nothing, and it writes nothing for it
 * @param rolloutCondition the condition it reports True while its operands roll after a change of
 *        what it renders (cluster-network-addons: Progressing, with Available False; CDI: Degraded,
 *        from its SDK's deployment check); null when it reports the new spec at once
 */
public record SimulatedComponent(String name, String group, String version, String kind, String plural,
        String crName, boolean namespaced, StatusWrite statusWrite, String observedVersionField,
        String targetVersionField, String pausedField, boolean reportsObservedGeneration, String heartbeatField,
        String image, String versionEnv, List<String> renderedPaths, String rolloutCondition) {

    /**
     * How the operator writes its CR's status, as far as its shipped RBAC allows it (upstream
     * v1.16.0's CSV): ssp-operator may only update ssps/status, cluster-network-addons-operator may
     * only patch networkaddonsconfigs/status, CDI's CRD has no status subresource.
     */
    public enum StatusWrite {
        /** PUT to the status subresource, carrying the resourceVersion read. */
        UPDATE_STATUS,
        /** PUT of the whole object: no status subresource, so every write moves the generation. */
        UPDATE_OBJECT,
        /** A patch of the status subresource, no resourceVersion (controller-runtime's {@code Status().Patch}). */
        PATCH_STATUS
    }

    public static final SimulatedComponent KUBEVIRT = new SimulatedComponent("KubeVirt", "kubevirt.io", "v1",
            "KubeVirt", "kubevirts", "kubevirt-kubevirt-hyperconverged", true, StatusWrite.UPDATE_STATUS, "observedKubeVirtVersion",
            "targetKubeVirtVersion", null, true, "lastProbeTime", "virt-operator", "KUBEVIRT_VERSION", null, null);

    /** CDI's CRD has no status subresource: its operator writes status with whole-object updates. */
    public static final SimulatedComponent CDI = new SimulatedComponent("CDI", "cdi.kubevirt.io", "v1beta1", "CDI",
            "cdis", "cdi-kubevirt-hyperconverged", false, StatusWrite.UPDATE_OBJECT, "observedVersion", "targetVersion", null, false,
            "lastHeartbeatTime", "cdi-operator", "OPERATOR_VERSION",
            List.of("imagePullPolicy", "priorityClass", "infra", "config.logVerbosity", "config.imagePullSecrets"),
            "Degraded");

    public static final SimulatedComponent NETWORK_ADDONS = new SimulatedComponent("NetworkAddonsConfig",
            "networkaddonsoperator.network.kubevirt.io", "v1", "NetworkAddonsConfig", "networkaddonsconfigs",
            "cluster", false, StatusWrite.PATCH_STATUS, "observedVersion", "targetVersion", null, false, null,
            "cluster-network-addons-operator", "OPERATOR_VERSION", null, "Progressing");

    public static final SimulatedComponent SSP = new SimulatedComponent("SSP", "ssp.kubevirt.io", "v1beta3", "SSP",
            "ssps", "ssp-kubevirt-hyperconverged", true, StatusWrite.UPDATE_STATUS, "observedVersion", "targetVersion", "paused", true,
            "lastHeartbeatTime", "ssp-operator", "OPERATOR_VERSION", null, null);

    public static final List<SimulatedComponent> ALL = List.of(KUBEVIRT, CDI, NETWORK_ADDONS, SSP);

    public static SimulatedComponent named(String name) {
        return ALL.stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no simulated component named " + name
                        + "; known: " + ALL.stream().map(SimulatedComponent::name).toList()));
    }

    /** The component whose operator an image reference runs ({@code registry/org/virt-operator@sha256:…}), if any. */
    public static Optional<SimulatedComponent> forImage(String imageReference) {
        String repository = repositoryName(imageReference);
        return ALL.stream().filter(c -> c.image().equals(repository)).findFirst();
    }

    /** The last path element of an image reference, without tag or digest ({@code virt-operator}). */
    public static String repositoryName(String imageReference) {
        String path = imageReference.split("@")[0];
        String last = path.substring(path.lastIndexOf('/') + 1);
        return last.contains(":") ? last.substring(0, last.indexOf(':')) : last;
    }

    /** Whether its CRD has a status subresource (a status write leaves the generation alone). */
    public boolean statusSubresource() {
        return statusWrite != StatusWrite.UPDATE_OBJECT;
    }

    public String apiVersion() {
        return group + "/" + version;
    }

    public String crdName() {
        return plural + "." + group;
    }

    public ResourceDefinitionContext definition() {
        return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withKind(kind)
                .withPlural(plural).withNamespaced(namespaced).build();
    }

    /** Its CRs: in {@code namespace} when namespaced, cluster-wide otherwise. */
    public NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> resources(
            KubernetesClient client, String namespace) {
        var all = client.genericKubernetesResources(definition());
        return namespaced ? all.inNamespace(namespace) : all;
    }

    /**
     * The CR as the operator's informer sees it: listed (all of its kind in its scope), never fetched. The real operators
     * read through their caches, and upstream's RBAC grants ssp-operator and
     * cluster-network-addons-operator list and watch on their CRs, not get.
     */
    public GenericKubernetesResource read(KubernetesClient client, String namespace) {
        return resources(client, namespace).list().getItems().stream()
                .filter(cr -> crName.equals(cr.getMetadata().getName())).findFirst().orElse(null);
    }
}
