package io.kubevirt.hco.api.v1;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class Networking {

    public String kubeSecondaryDNSNameServerIP;
    /** New in v1 (no v1beta1 field): kept through v1beta1 storage in an annotation. */
    public KubeMacPoolConfig kubeMacPoolConfiguration;
    public Map<String, JsonNode> networkBinding;

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class KubeMacPoolConfig {
        public String rangeStart;
        public String rangeEnd;
    }
}
