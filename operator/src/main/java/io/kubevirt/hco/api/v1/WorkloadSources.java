package io.kubevirt.hco.api.v1;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.generator.annotation.Default;
import io.kubevirt.hco.api.v1beta1.DataImportCronTemplate;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class WorkloadSources {

    public String commonTemplatesNamespace;
    public String commonBootImageNamespace;
    @Default("true")
    public Boolean enableCommonBootImageImport;
    public List<DataImportCronTemplate> dataImportCronTemplates;
    @PreserveUnknownFields
    public JsonNode instancetypeConfig;
    /** v1beta1's spec.CommonInstancetypesDeployment (upper-case C there). */
    @PreserveUnknownFields
    public JsonNode commonInstancetypesDeployment;
}
