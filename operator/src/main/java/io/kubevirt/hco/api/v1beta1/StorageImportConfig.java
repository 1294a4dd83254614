package io.kubevirt.hco.api.v1beta1;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class StorageImportConfig {

    @JsonPropertyDescription("Registries CDI may pull images from without TLS verification.")
    public List<String> insecureRegistries;
}
