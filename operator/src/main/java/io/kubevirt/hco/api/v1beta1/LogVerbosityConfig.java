package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.crd.generator.annotation.PreserveUnknownFields;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class LogVerbosityConfig {

    @JsonPropertyDescription("KubeVirt's LogVerbosity (virtAPI, virtController, virtHandler, virtLauncher, virtOperator, nodeVerbosity), copied as is.")
    @PreserveUnknownFields
    public JsonNode kubevirt;

    @JsonPropertyDescription("Log verbosity of CDI's components.")
    public Integer cdi;
}
