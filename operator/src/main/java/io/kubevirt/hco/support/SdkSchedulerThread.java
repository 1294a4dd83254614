package io.kubevirt.hco.support;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.javaoperatorsdk.operator.Operator;
import io.quarkus.runtime.StartupEvent;

/**
 * Gives the operator SDK's scheduler one thread that stays. JOSDK 5.3 creates it with
 * {@code Executors.newScheduledThreadPool(0)}, and its informers always keep a periodic task there
 * (the ghost-resource check). A scheduled pool without a core thread has no thread that may sleep
 * until the next task is due: its worker polls the queue with a 10 ms keep-alive, times out and is
 * replaced, a hundred wake-ups a second for as long as the process lives (JDK-8129861; the bench
 * found it as about half of an idle operator's CPU). With one core thread the worker waits for the task.
 */
@ApplicationScoped
public class SdkSchedulerThread {

    private static final Logger LOG = Logger.getLogger(SdkSchedulerThread.class);

    @Inject
    Instance<Operator> operator;

    void onStart(@Observes StartupEvent event) {
        if (operator.isResolvable()) {
            keepOneThread(operator.get().getConfigurationService().getExecutorServiceManager().scheduledExecutorService());
        }
    }

    private static void keepOneThread(ScheduledExecutorService scheduler) {
        if (scheduler instanceof ScheduledThreadPoolExecutor pool) {
            if (pool.getCorePoolSize() < 1) {
                pool.setCorePoolSize(1);
            }
        } else {
            LOG.debugf("the operator SDK's scheduler is a %s: left as it is", scheduler == null ? null : scheduler.getClass());
        }
    }
}
