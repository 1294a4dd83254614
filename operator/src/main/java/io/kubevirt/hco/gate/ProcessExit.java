package io.kubevirt.hco.gate;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.runtime.Quarkus;

/**
 * Ends the process so that Kubernetes restarts the pod. Quarkus' asynchronous exit, not
 * {@code System.exit}: that blocks forever when it runs inside shutdown, and shutdown hands the
 * lease back. A bean so that a test can see the request without losing its JVM.
 */
@ApplicationScoped
public class ProcessExit {

    public void exit(int code) {
        Quarkus.asyncExit(code);
    }
}
