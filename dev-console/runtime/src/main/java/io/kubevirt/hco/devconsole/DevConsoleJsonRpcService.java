package io.kubevirt.hco.devconsole;

import java.util.Map;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

/**
 * The Dev UI card's backend (registered by the deployment module in dev mode only). It forwards to
 * the operator's {@link DevConsole}; without one (the embedded cluster switched off) it says so.
 */
public class DevConsoleJsonRpcService {

    static final String NO_CONSOLE = "The operator's dev console is not running: it starts in dev mode "
            + "together with the embedded cluster (hco.dev.embedded-cluster=true, the default, and no "
            + "quarkus.kubernetes-client.api-server-url of your own).";

    @Inject
    Instance<DevConsole> console;

    public Map<String, Object> state() {
        return console.isResolvable() ? console.get().state() : Map.of("error", NO_CONSOLE);
    }

    /** The card's one-line label, e.g. "Upgradeable=False: ComponentNotReady". */
    public String summary() {
        return console.isResolvable() ? String.valueOf(console.get().state().get("summary")) : "not running";
    }

    public Map<String, Object> act(String component, String action) {
        return console.isResolvable() ? console.get().act(component, action) : Map.of("error", NO_CONSOLE);
    }
}
