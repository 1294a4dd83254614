package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class RelatedObject {
    public String apiVersion;
    public String kind;
    public String name;
    public String namespace;

    public RelatedObject() {
    }

    public RelatedObject(String apiVersion, String kind, String name, String namespace) {
        this.apiVersion = apiVersion;
        this.kind = kind;
        this.name = name;
        this.namespace = namespace;
    }
}
