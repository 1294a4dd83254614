package io.kubevirt.hco.components;

import java.util.Map;
import java.util.Set;

/**
 * The facts beyond the HyperConverged spec that component specs depend on, as upstream's handlers
 * read them from the cluster and the environment.
 *
 * @param operatorNamespace where the operator and the namespaced component CRs live
 * @param operatorVersion the HCO version, KubeVirt's productVersion
 * @param workerNodes worker nodes seen; 0 or less when none were counted (treated as more than
 *        one: the eviction default must not shut VMs down because a count was missing)
 * @param stack names of the components that are part of the stack (KubeVirt gates depend on SSP)
 * @param annotations the HyperConverged's annotations (tuning policy values, JSON patches)
 * @param machineTypes KubeVirt machine type per architecture (amd64, arm64, s390x) set by the operator's environment
 */
public record SpecContext(String operatorNamespace, String operatorVersion, int workerNodes, Set<String> stack,
        Map<String, String> annotations, Map<String, String> machineTypes) {

    public SpecContext {
        operatorVersion = operatorVersion == null ? "" : operatorVersion;
        stack = stack == null ? Set.of() : Set.copyOf(stack);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        machineTypes = machineTypes == null ? Map.of() : Map.copyOf(machineTypes);
    }

    /** A multi-node cluster of unknown version with every component: what tests of a single field need. */
    public SpecContext(String operatorNamespace) {
        this(operatorNamespace, "", -1, Set.of("KubeVirt", "CDI", "NetworkAddonsConfig", "SSP"), Map.of(), Map.of());
    }

    /** More than one node to run on: only a cluster known to have exactly one is not (zero means none counted yet). */
    public boolean highlyAvailable() {
        return workerNodes != 1;
    }

    public SpecContext withAnnotations(Map<String, String> values) {
        return new SpecContext(operatorNamespace, operatorVersion, workerNodes, stack, values, machineTypes);
    }

    public SpecContext withWorkerNodes(int count) {
        return new SpecContext(operatorNamespace, operatorVersion, count, stack, annotations, machineTypes);
    }
}
