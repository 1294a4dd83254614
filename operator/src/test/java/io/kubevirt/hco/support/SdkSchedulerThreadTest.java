package io.kubevirt.hco.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ScheduledThreadPoolExecutor;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.javaoperatorsdk.operator.Operator;
import io.kubevirt.hco.reconciler.OlmInstalledOperator;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;

/**
 * The operator SDK's scheduler, as the running application has it, keeps a thread that waits for
 * its next task. JOSDK creates it without one, and its informers' periodic check then makes a
 * worker poll every 10 ms all day (the bench's idle CPU, docs/testing.md).
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true, setup = OlmInstalledOperator.class)
class SdkSchedulerThreadTest {

    @Inject
    Operator operator;

    @Test
    void theSdksSchedulerHasACoreThread() {
        var scheduler = operator.getConfigurationService().getExecutorServiceManager().scheduledExecutorService();
        assertThat(scheduler).isInstanceOf(ScheduledThreadPoolExecutor.class);
        assertThat(((ScheduledThreadPoolExecutor) scheduler).getCorePoolSize()).isGreaterThanOrEqualTo(1);
        // it is the pool the informers schedule on: a periodic task is waiting there
        assertThat(((ScheduledThreadPoolExecutor) scheduler).getQueue()).isNotEmpty();
    }
}
