package io.kubevirt.hco.simulator;

import java.util.Map;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.StatusCondition;
import io.kubevirt.hco.gate.OperatorConditionWriter;

/** Small reads and writes tests and the demo make against a cluster, named for what they mean (test code). */
public final class Cluster {

    private final KubernetesClient client;
    private final String namespace;

    public Cluster(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    /** What OLM creates for the installed CSV before the operator starts: an empty OperatorCondition. */
    public void createOperatorCondition(String name) {
        OlmObjects.createOperatorCondition(client, namespace, name);
    }

    /** The Upgradeable condition as OLM would read it from spec.conditions; null when none. */
    public Map<String, Object> upgradeable(String operatorConditionName) {
        return upgradeableOf(client.genericKubernetesResources(OperatorConditionWriter.DEFINITION)
                .inNamespace(namespace).withName(operatorConditionName).get());
    }

    /** The Upgradeable condition of spec.conditions of this OperatorCondition; null when none. */
    public static Map<String, Object> upgradeableOf(GenericKubernetesResource oc) {
        return upgradeableOf(oc, "spec");
    }

    /** The Upgradeable condition in {@code part} ("spec", or "status" where OLM copies it); null when none. */
    public static Map<String, Object> upgradeableOf(GenericKubernetesResource oc, String part) {
        return OlmObjects.upgradeableOf(oc, part);
    }

    public HyperConverged createHyperConverged(String name) {
        HyperConverged hco = new HyperConverged();
        hco.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        return client.resource(hco).create();
    }

    public HyperConverged hyperConverged(String name) {
        return client.resources(HyperConverged.class).inNamespace(namespace).withName(name).get();
    }

    public StatusCondition hcoCondition(String name, String type) {
        HyperConverged hco = hyperConverged(name);
        if (hco == null || hco.getStatus() == null) {
            return null;
        }
        return hco.getStatus().conditions.stream().filter(c -> type.equals(c.type)).findFirst().orElse(null);
    }

    public GenericKubernetesResource component(io.kubevirt.hco.components.ComponentDescriptor d) {
        return io.kubevirt.hco.components.ComponentResources.managed(client, d, namespace).get();
    }

    public KubernetesClient client() {
        return client;
    }
}
