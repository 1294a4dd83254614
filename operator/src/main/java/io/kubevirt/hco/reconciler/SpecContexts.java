package io.kubevirt.hco.reconciler;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.SpecContext;
import io.kubevirt.hco.config.OperatorSettings;

/**
 * Gathers the facts component specs depend on besides the HyperConverged spec. Machine types come
 * from the environment variables upstream's CSV sets ({@code MACHINETYPE} or
 * {@code AMD64_MACHINETYPE}, {@code ARM64_MACHINETYPE}, {@code S390X_MACHINETYPE}).
 */
@ApplicationScoped
class SpecContexts {

    @Inject
    OperatorSettings settings;

    @ConfigProperty(name = "MACHINETYPE")
    Optional<String> machineType;

    @ConfigProperty(name = "AMD64_MACHINETYPE")
    Optional<String> amd64MachineType;

    @ConfigProperty(name = "ARM64_MACHINETYPE")
    Optional<String> arm64MachineType;

    @ConfigProperty(name = "S390X_MACHINETYPE")
    Optional<String> s390xMachineType;

    SpecContext of(HyperConverged hco, String operatorVersion, int workerNodes, Set<String> stack) {
        Map<String, String> machineTypes = new LinkedHashMap<>();
        machineType.or(() -> amd64MachineType).filter(s -> !s.isBlank()).ifPresent(t -> machineTypes.put("amd64", t));
        arm64MachineType.filter(s -> !s.isBlank()).ifPresent(t -> machineTypes.put("arm64", t));
        s390xMachineType.filter(s -> !s.isBlank()).ifPresent(t -> machineTypes.put("s390x", t));
        Map<String, String> annotations = hco.getMetadata().getAnnotations();
        return new SpecContext(settings.namespace(), operatorVersion, workerNodes, stack, annotations, machineTypes);
    }
}
