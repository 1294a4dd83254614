package io.kubevirt.hco.api.v1;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.kubevirt.hco.api.v1beta1.CertRotationConfig;
import io.kubevirt.hco.api.v1beta1.TlsSecurityProfile;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class Security {

    public CertRotationConfig certConfig;
    public TlsSecurityProfile tlsSecurityProfile;
}
