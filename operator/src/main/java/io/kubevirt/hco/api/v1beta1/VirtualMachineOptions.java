package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Default;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class VirtualMachineOptions {

    @JsonPropertyDescription("Disable free page reporting of the memory balloon device.")
    @Default("false")
    public Boolean disableFreePageReporting = false;

    @JsonPropertyDescription("Do not log the auto-attached serial console.")
    @Default("false")
    public Boolean disableSerialConsoleLog = false;
}
