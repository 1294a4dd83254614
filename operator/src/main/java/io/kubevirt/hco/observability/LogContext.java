package io.kubevirt.hco.observability;

import java.util.ArrayList;
import java.util.List;

import org.jboss.logging.MDC;

import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.core.GateInput;
import io.kubevirt.hco.core.UpgradeState;

/**
 * The stable fields of every log line about the gate, put in the logging MDC (in JSON logs they
 * appear under {@code mdc}): {@code gate}, {@code reason}, {@code component}, {@code hcoGeneration},
 * {@code upgradeFrom}, {@code upgradeTo}. Field names are an API for log queries: never rename.
 * Values are decisions and names only; nothing from a request or a credential goes in here.
 */
public final class LogContext implements AutoCloseable {

    public static final String GATE = "gate";
    public static final String REASON = "reason";
    public static final String COMPONENT = "component";
    public static final String HCO_GENERATION = "hcoGeneration";
    public static final String UPGRADE_FROM = "upgradeFrom";
    public static final String UPGRADE_TO = "upgradeTo";

    private final List<String> keys = new ArrayList<>();

    private LogContext() {
    }

    /** The decision and the snapshot it was taken on; {@code component} is the first blocker, if any. */
    public static LogContext of(GateInput input, GateDecision decision) {
        LogContext c = new LogContext();
        c.put(GATE, decision.upgradeable() ? "True" : "False");
        c.put(REASON, decision.reason().name());
        if (!decision.blockers().isEmpty()) {
            c.put(COMPONENT, decision.blockers().get(0).subject());
        }
        if (input.hyperConverged().present()) {
            c.put(HCO_GENERATION, Long.toString(input.hyperConverged().generation()));
        }
        UpgradeState upgrade = decision.assessment().upgrade();
        if (upgrade != null && upgrade.phase() != UpgradeState.Phase.COMPLETE) {
            c.put(UPGRADE_FROM, upgrade.fromVersion());
            c.put(UPGRADE_TO, upgrade.toVersion());
        }
        return c;
    }

    /** One component's work inside a reconcile of HyperConverged generation {@code generation}. */
    public static LogContext component(String component, Long generation) {
        LogContext c = new LogContext();
        c.put(COMPONENT, component);
        if (generation != null) {
            c.put(HCO_GENERATION, generation.toString());
        }
        return c;
    }

    private void put(String key, String value) {
        if (value != null) {
            MDC.put(key, value);
            keys.add(key);
        }
    }

    @Override
    public void close() {
        keys.forEach(MDC::remove);
    }
}
