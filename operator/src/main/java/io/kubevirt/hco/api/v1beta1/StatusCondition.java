package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;

/** A metav1.Condition: lastTransitionTime moves only when status changes. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class StatusCondition {
    public String type;
    public String status;
    public String reason;
    public String message;
    public Long observedGeneration;
    public String lastTransitionTime;

    public StatusCondition() {
    }

    public StatusCondition(String type, String status, String reason, String message, Long observedGeneration,
            String lastTransitionTime) {
        this.type = type;
        this.status = status;
        this.reason = reason;
        this.message = message;
        this.observedGeneration = observedGeneration;
        this.lastTransitionTime = lastTransitionTime;
    }
}
