package io.kubevirt.hco.reconciler;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * On a failed test, puts where the operator's threads were and what the gate said in front of the
 * failure's message. A test that timed out waiting for the gate on CI left only its expectation
 * behind; this shows whether a pass was stuck, on what, and on which decision (it named the
 * component the gate waited for when that failure was reproduced: docs/testing.md). Only threads
 * with a frame in the operator's code are shown (JOSDK 5's reconciler threads are plain
 * {@code pool-N-thread-M}: an idle one says nothing), a few frames each, so that the failure stays
 * readable in a CI log.
 */
public final class WhereTheOperatorWas implements TestExecutionExceptionHandler {

    private static final int FRAMES = 12;

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        String where;
        try {
            where = threads() + gate();
        } catch (RuntimeException | Error e) {
            where = "(where the operator was could not be read: " + e + ")\n";
        }
        AssertionError annotated = new AssertionError(where + "--- the failure:\n" + failure.getMessage(), failure);
        annotated.setStackTrace(failure.getStackTrace());
        throw annotated;
    }

    static String threads() {
        StringBuilder out = new StringBuilder("--- the operator's threads when the test failed:\n");
        long self = Thread.currentThread().getId();
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, false)) {
            if (t.getThreadId() == self || !relevant(t)) {
                continue;
            }
            out.append('"').append(t.getThreadName()).append("\" ").append(t.getThreadState());
            if (t.getLockName() != null) {
                out.append(" on ").append(t.getLockName());
            }
            if (t.getLockOwnerName() != null) {
                out.append(" held by \"").append(t.getLockOwnerName()).append('"');
            }
            out.append('\n');
            StackTraceElement[] stack = t.getStackTrace();
            for (int i = 0; i < Math.min(FRAMES, stack.length); i++) {
                out.append("    at ").append(stack[i]).append('\n');
            }
            for (var monitor : t.getLockedMonitors()) {
                out.append("    holds ").append(monitor).append('\n');
            }
        }
        return out.toString();
    }

    private static boolean relevant(ThreadInfo t) {
        return Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getClassName().startsWith("io.kubevirt.hco."));
    }

    private static String gate() {
        try {
            HttpResponse<String> answer = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build().send(
                    HttpRequest.newBuilder(URI.create("http://localhost:9001/q/hco/gate?format=text"))
                            .timeout(Duration.ofSeconds(3)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return "--- /q/hco/gate:\n" + answer.body().lines().limit(30).reduce("", (a, l) -> a + l + "\n");
        } catch (java.io.IOException e) {
            // a timeout here says something too: explaining takes the gate's lock
            return "--- /q/hco/gate did not answer: " + e + "\n";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "--- /q/hco/gate: interrupted\n";
        }
    }
}
