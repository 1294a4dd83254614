package io.kubevirt.hco.api.v1beta1;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Pattern;

/** Space CDI reserves on Filesystem volumes, as a fraction between 0 and 1 (CDI's own type). */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class FilesystemOverhead {

    static final String FRACTION = "^(0(?:\\.\\d{1,3})?|1)$";

    @JsonPropertyDescription("Overhead for every storage class without its own value, e.g. \"0.055\".")
    @Pattern(FRACTION)
    public String global;

    @JsonPropertyDescription("Overhead per storage class name.")
    public Map<String, String> storageClass;
}
