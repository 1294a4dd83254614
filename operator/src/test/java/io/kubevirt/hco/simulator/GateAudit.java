package io.kubevirt.hco.simulator;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.gate.OperatorConditionWriter;

/**
 * The OLM-side check: watches every revision of the OperatorCondition and, for each one that says
 * Upgradeable=True, asks the simulator's ground truth whether every component had really converged
 * at the expected version. Any revision that says otherwise is a violation.
 */
public class GateAudit implements AutoCloseable {

    private final java.util.function.BiPredicate<String, String> truth;
    private final String expectedVersion;
    private final List<String> revisions = new CopyOnWriteArrayList<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final Watch watch;

    /**
     * @param truth whether a component (by name) has really converged at a version: the in-process
     *        simulator's ground truth, or what the CRs' statuses say when the component operators
     *        run as their own processes
     */
    public GateAudit(Cluster cluster, String namespace, String operatorCondition,
            java.util.function.BiPredicate<String, String> truth, String expectedVersion) {
        this.truth = truth;
        this.expectedVersion = expectedVersion;
        this.watch = cluster.client().genericKubernetesResources(OperatorConditionWriter.DEFINITION)
                .inNamespace(namespace).withName(operatorCondition).watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, GenericKubernetesResource oc) {
                        inspect(oc);
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                });
    }

    private void inspect(GenericKubernetesResource oc) {
        Map<String, Object> m = Cluster.upgradeableOf(oc);
        if (m == null) {
            return;
        }
        revisions.add(m.get("status") + "/" + m.get("reason"));
        if ("True".equals(m.get("status"))) {
            List<String> unconverged = ComponentCatalog.ALL.stream()
                    .filter(d -> !truth.test(d.name(), expectedVersion)).map(d -> d.name()).toList();
            if (!unconverged.isEmpty()) {
                violations.add("Upgradeable=True (" + m.get("reason") + ") while not converged at "
                        + expectedVersion + ": " + unconverged);
            }
        }
    }

    public List<String> violations() {
        return violations;
    }

    public List<String> revisions() {
        return revisions;
    }

    @Override
    public void close() {
        watch.close();
    }
}
