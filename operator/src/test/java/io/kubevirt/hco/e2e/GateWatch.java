package io.kubevirt.hco.e2e;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kubevirt.hco.gate.OperatorConditionWriter;
import io.kubevirt.hco.simulator.Cluster;

/** The OperatorCondition's Upgradeable condition as a watcher (OLM) sees it, with arrival times (bench). */
public final class GateWatch implements AutoCloseable {

    /** One revision's Upgradeable status and reason, and the nanoTime it arrived. */
    public record Seen(String status, String reason, long nanoTime) {
    }

    private final BlockingQueue<Seen> events = new LinkedBlockingQueue<>();
    private final Watch watch;

    public GateWatch(KubernetesClient client, String namespace, String name) {
        watch = client.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(namespace)
                .withName(name).watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, GenericKubernetesResource oc) {
                        Map<String, Object> u = Cluster.upgradeableOf(oc);
                        if (u != null) {
                            events.add(new Seen((String) u.get("status"), (String) u.get("reason"), System.nanoTime()));
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                });
    }

    public void drain() {
        events.clear();
    }

    /** The next revision seen, or null when none arrives within {@code timeout}. */
    public Seen next(Duration timeout) throws InterruptedException {
        return events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** nanoTime at which the first event with {@code status} arrived. */
    public long awaitStatus(String status, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Seen e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e != null && status.equals(e.status())) {
                return e.nanoTime();
            }
        }
        throw new IllegalStateException("Upgradeable=" + status + " not seen within " + timeout);
    }

    @Override
    public void close() {
        watch.close();
    }
}
