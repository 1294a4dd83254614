package io.kubevirt.hco.core;

/** Why one thing keeps the gate closed. {@code subject} is a component name, or "HyperConverged"/"operator". */
public record Blocker(String subject, GateReason reason, String message) {

    public String describe() {
        return subject + ": " + message;
    }
}
