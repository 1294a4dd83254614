package io.kubevirt.hco.api.v1;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class VirtualMachineOptions {

    public Boolean disableFreePageReporting;
    public Boolean disableSerialConsoleLog;
    /** v1beta1's spec.defaultCPUModel. */
    public String defaultCPUModel;
    /** v1beta1's spec.defaultRuntimeClass. */
    public String defaultRuntimeClass;
}
