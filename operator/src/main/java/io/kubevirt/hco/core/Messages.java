package io.kubevirt.hco.core;

/**
 * Messages that leave the process (OperatorCondition, HyperConverged status) carry component
 * messages verbatim, which no one bounds: the API server limits a condition message to 32 KiB, and
 * a refused write must never be what keeps a gate from closing. Cut at 1 KiB.
 */
public final class Messages {

    public static final int MAX_LENGTH = 1024;

    private Messages() {
    }

    public static String bounded(String message) {
        if (message == null || message.isEmpty()) {
            return "-";
        }
        return message.length() <= MAX_LENGTH ? message : message.substring(0, MAX_LENGTH - 1) + "…";
    }
}
