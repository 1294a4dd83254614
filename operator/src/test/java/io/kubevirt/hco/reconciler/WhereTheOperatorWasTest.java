package io.kubevirt.hco.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

class WhereTheOperatorWasTest {

    @Test
    void aFailureCarriesTheOperatorsThreadsAndKeepsItsOwnMessageAndCause() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread stuck = new Thread(() -> awaitQuietly(release), "ReconcilerExecutor-probe");
        stuck.start();
        try {
            while (stuck.getState() != Thread.State.WAITING) {
                Thread.onSpinWait();
            }
            var original = new IllegalStateException("the gate never opened");
            Throwable thrown = catchThrowable(() -> new WhereTheOperatorWas().handleTestExecutionException(null, original));
            assertThat(thrown).isInstanceOf(AssertionError.class).hasCause(original);
            assertThat(thrown.getMessage())
                    .contains("\"ReconcilerExecutor-probe\" WAITING on java.util.concurrent.CountDownLatch")
                    .contains(WhereTheOperatorWasTest.class.getName() + ".awaitQuietly(")
                    .contains("/q/hco/gate")
                    .endsWith("--- the failure:\nthe gate never opened");
            assertThat(thrown.getStackTrace()).isEqualTo(original.getStackTrace());
        } finally {
            release.countDown();
            stuck.join();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
