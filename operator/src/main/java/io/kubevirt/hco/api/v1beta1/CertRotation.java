package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "duration(self.renewBefore) < duration(self.duration)",
        message = "renewBefore must be shorter than duration, e.g. duration: 48h0m0s with renewBefore: 24h0m0s")
@ValidationRule(value = "duration(self.duration) >= duration('10m')",
        message = "duration must be at least 10m: shorter certificates would be rotated continuously")
public class CertRotation {

    static final String GO_DURATION = "^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$";

    @JsonPropertyDescription("Lifetime of the certificate as a Go duration, e.g. 48h0m0s.")
    @Required
    @Pattern(GO_DURATION)
    public String duration;

    @JsonPropertyDescription("How long before expiry it is renewed, as a Go duration; must be shorter than duration.")
    @Required
    @Pattern(GO_DURATION)
    public String renewBefore;

    public CertRotation() {
    }

    public CertRotation(String duration, String renewBefore) {
        this.duration = duration;
        this.renewBefore = renewBefore;
    }
}
