package io.kubevirt.hco.explain;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.StatusCondition;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.gate.Leadership;
import io.kubevirt.hco.snapshot.StackSnapshots;

/** Reads what the leader published (HyperConverged status, Lease holder) for a standby's answer. */
@ApplicationScoped
public class StandbyRelay {

    @Inject
    KubernetesClient client;

    @Inject
    OperatorSettings settings;

    public PublishedDecision read() {
        String namespace = settings.namespace();
        var lease = client.leases().inNamespace(namespace).withName(settings.leaderElection().leaseName()).get();
        String leader = lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
        HyperConverged hco = client.resources(HyperConverged.class).inNamespace(namespace)
                .withName(HyperConverged.SINGLETON_NAME).get();
        String self = Leadership.identity();
        if (hco == null || hco.getStatus() == null) {
            return new PublishedDecision(self, leader, "cluster: no HyperConverged " + HyperConverged.SINGLETON_NAME
                    + " in " + namespace + " (with nothing installed the leader publishes only to OLM's OperatorCondition)",
                    null, null, null, null, List.of());
        }
        StatusCondition upgradeable = StackSnapshots.publishedUpgradeable(hco);
        if (upgradeable == null) {
            return new PublishedDecision(self, leader, "HyperConverged status (no Upgradeable condition yet)", null,
                    null, null, null, List.of());
        }
        List<PublishedDecision.Blocker> blockers = hco.getStatus().blockers == null ? List.of()
                : hco.getStatus().blockers.stream()
                        .map(b -> new PublishedDecision.Blocker(b.component, b.reason, b.message)).toList();
        return new PublishedDecision(self, leader, "HyperConverged status", upgradeable.status, upgradeable.reason,
                upgradeable.message, upgradeable.lastTransitionTime, blockers);
    }
}
