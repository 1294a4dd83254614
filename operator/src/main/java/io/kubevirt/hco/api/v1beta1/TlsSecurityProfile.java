package io.kubevirt.hco.api.v1beta1;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * OpenShift's TLSSecurityProfile: a predefined profile (Old, Intermediate, Modern) or Custom
 * ciphers and minimum version. Unset means Intermediate, as upstream does on vanilla Kubernetes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TlsSecurityProfile {

    public enum Type {
        Old, Intermediate, Modern, Custom
    }

    public enum TlsVersion {
        VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13
    }

    @JsonPropertyDescription("Old, Intermediate, Modern or Custom.")
    public Type type;

    @JsonPropertyDescription("Empty object: the Old profile.")
    public Map<String, String> old;

    @JsonPropertyDescription("Empty object: the Intermediate profile.")
    public Map<String, String> intermediate;

    @JsonPropertyDescription("Empty object: the Modern profile.")
    public Map<String, String> modern;

    @JsonPropertyDescription("Ciphers (OpenSSL names) and minimum TLS version of the Custom profile.")
    public Custom custom;

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Custom {
        public List<String> ciphers;
        public TlsVersion minTLSVersion;
    }

    public static TlsSecurityProfile intermediate() {
        TlsSecurityProfile p = new TlsSecurityProfile();
        p.type = Type.Intermediate;
        p.intermediate = Map.of();
        return p;
    }
}
