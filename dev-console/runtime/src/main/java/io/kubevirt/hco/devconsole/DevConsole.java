package io.kubevirt.hco.devconsole;

import java.util.Map;

/**
 * What the operator shows and lets you drive from its Dev UI card, implemented by the operator in dev
 * mode. Values are plain JSON (maps, lists, strings, numbers), so this contract and the card know
 * nothing of the operator's own types.
 */
public interface DevConsole {

    /**
     * The live gate (as {@code /q/hco/gate} explains it), the simulated components and the timeline;
     * {@code summary} is a one-line form of the decision.
     */
    Map<String, Object> state();

    /**
     * Tells the simulated operator of {@code component} (or {@code all}) to behave as {@code action}
     * says; returns the state after it. Unknown names are refused with the list of known ones.
     */
    Map<String, Object> act(String component, String action);
}
