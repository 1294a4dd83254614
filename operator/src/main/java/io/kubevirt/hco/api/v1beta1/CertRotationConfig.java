package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class CertRotationConfig {

    @JsonPropertyDescription("The internal CA: lifetime and how long before expiry it is renewed.")
    public CertRotation ca = new CertRotation("48h0m0s", "24h0m0s");

    @JsonPropertyDescription("Server certificates signed by that CA.")
    public CertRotation server = new CertRotation("24h0m0s", "12h0m0s");
}
