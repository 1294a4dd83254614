package io.kubevirt.hco.support;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** One named daemon thread for a background check: it never keeps the process from exiting. */
public final class DaemonTimer {

    private DaemonTimer() {
    }

    public static ScheduledExecutorService named(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }
}
