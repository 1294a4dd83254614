package io.kubevirt.hco.api.v1beta1;

/** One blocker of the Upgradeable gate, shortened for kubectl: the full evidence is on the explain endpoint. */
public class GateBlocker {
    public String component;
    public String reason;
    public String message;

    public GateBlocker() {
    }

    public GateBlocker(String component, String reason, String message) {
        this.component = component;
        this.reason = reason;
        this.message = message;
    }
}
