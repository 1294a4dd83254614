package io.kubevirt.hco.api.v1beta1;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.generator.annotation.Required;

/** A golden image: the DataImportCron SSP creates, named by metadata, specified by CDI's DataImportCronSpec. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DataImportCronTemplate {

    @JsonPropertyDescription("Name (required) and optional namespace, labels and annotations of the DataImportCron.")
    @Required
    public Metadata metadata;

    @JsonPropertyDescription("CDI's DataImportCronSpec, copied as is.")
    @PreserveUnknownFields
    public JsonNode spec;

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public static class Metadata {
        @Required
        public String name;
        public String namespace;
        public Map<String, String> labels;
        public Map<String, String> annotations;
    }
}
