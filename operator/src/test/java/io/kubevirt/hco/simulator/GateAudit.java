package io.kubevirt.hco.simulator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kubevirt.hco.gate.OperatorConditionWriter;

/**
 * The OLM-side check: records every revision of the OperatorCondition and judges each one that
 * says Upgradeable=True on the stack as it stood at that revision ({@link StackHistory}): had every
 * component really converged at the expected version? Any revision that says otherwise is a
 * violation.
 */
public class GateAudit implements AutoCloseable {

    /** One revision of the Upgradeable condition. */
    private record Claim(long resourceVersion, String status, String reason) {
    }

    private final StackHistory stack;
    private final StackHistory.Judge judge;
    private final String expectedVersion;
    private final List<Claim> claims = new CopyOnWriteArrayList<>();
    private final Watch watch;

    /**
     * @param judge whether a component's CR, as read at a revision, shows it converged at a version:
     *        the in-process simulator's record of what it wrote ({@link ComponentSimulator#convergedAsOf}),
     *        or what the status says when the component operators run as their own processes
     */
    public GateAudit(Cluster cluster, String namespace, String operatorCondition, StackHistory.Judge judge,
            String expectedVersion) {
        this.judge = judge;
        this.expectedVersion = expectedVersion;
        this.stack = new StackHistory(cluster.client(), namespace);
        this.watch = cluster.client().genericKubernetesResources(OperatorConditionWriter.DEFINITION)
                .inNamespace(namespace).withName(operatorCondition).watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, GenericKubernetesResource oc) {
                        Map<String, Object> m = Cluster.upgradeableOf(oc);
                        if (m != null) {
                            claims.add(new Claim(Long.parseLong(oc.getMetadata().getResourceVersion()),
                                    (String) m.get("status"), (String) m.get("reason")));
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                });
    }

    /** Every Upgradeable=True recorded so far that the stack at its revision contradicts. */
    public List<String> violations() {
        try {
            stack.catchUp(Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        List<String> violations = new ArrayList<>();
        for (Claim c : claims) {
            if ("True".equals(c.status())) {
                List<String> unconverged = stack.unconvergedAt(c.resourceVersion(), expectedVersion, judge);
                if (!unconverged.isEmpty()) {
                    violations.add("Upgradeable=True (" + c.reason() + ") at revision " + c.resourceVersion()
                            + " while not converged at " + expectedVersion + ": " + unconverged);
                }
            }
        }
        return violations;
    }

    public List<String> revisions() {
        return claims.stream().map(c -> c.status() + "/" + c.reason()).toList();
    }

    @Override
    public void close() {
        watch.close();
        stack.close();
    }
}
