package io.kubevirt.hco.components;

/**
 * The HyperConverged asks for something that cannot be derived (a malformed annotation, a JSON
 * patch that does not apply or touches what the gate reads). The message says what and how to fix
 * it; the reconciler reports it as a condition and keeps the component CRs as they are.
 */
public class InvalidSpecException extends IllegalArgumentException {

    public InvalidSpecException(String message) {
        super(message);
    }
}
