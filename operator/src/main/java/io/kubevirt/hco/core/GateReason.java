package io.kubevirt.hco.core;

/**
 * Stable, machine-readable reasons of the Upgradeable condition. They are API: OLM shows them on a
 * blocked CSV, alerts and runbooks key on them. Never rename one; add new ones.
 */
public enum GateReason {
    /** The gate is open: everything converged and stayed so for the stabilization window. */
    AsExpected(true),
    /** The gate is open: there is no HyperConverged and no component CR, so nothing can be interrupted. */
    NoStackInstalled(true),
    /** This process has not completed a full reconcile of every component yet, or is not the leader. */
    Initializing(false),
    /** The operator version recorded in the HyperConverged status differs from this operator's version. */
    UpgradeInProgress(false),
    /** A component CR is missing, or has no (or unparsable) status conditions. */
    ComponentNotReporting(false),
    /** A component reports Available other than True. */
    ComponentUnavailable(false),
    /** A component reports Progressing other than False (or is paused). */
    ComponentProgressing(false),
    /** A component reports Degraded other than False. */
    ComponentDegraded(false),
    /** A component reports another observed or target version than the expected one. */
    ComponentVersionMismatch(false),
    /** A component has not (provably) observed the spec this operator last wrote. */
    ComponentStale(false),
    /** The HyperConverged CR is missing while component CRs exist, or is being deleted. */
    HyperConvergedMissing(false),
    /** The HyperConverged spec's current generation has not been applied to the components yet. */
    HyperConvergedNotObserved(false),
    /** Everything converged, but not yet for the whole stabilization window. */
    Stabilizing(false),
    /** Reading or evaluating the state failed. */
    EvaluationError(false),
    /** A component that is part of the stack has no served CRD (deleted, or never installed while enabled). */
    ComponentCrdMissing(false);

    private final boolean open;

    GateReason(boolean open) {
        this.open = open;
    }

    public boolean opensGate() {
        return open;
    }
}
