package io.kubevirt.hco.observability;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.core.GateDecision;

/**
 * One log line and one Kubernetes Event per gate transition. An Event that cannot be written is
 * logged and dropped: diagnostics never fail a reconcile.
 */
@ApplicationScoped
public class GateEvents {

    private static final Logger LOG = Logger.getLogger("io.kubevirt.hco.gate");

    @Inject
    KubernetesClient client;

    public void transition(GateDecision previous, GateDecision next, HasMetadata target) {
        String from = previous == null ? "none" : (previous.upgradeable() ? "True/" : "False/") + previous.reason();
        String to = (next.upgradeable() ? "True/" : "False/") + next.reason();
        LOG.infof("gate transition %s -> %s: %s", from, to, next.message());
        if (target == null) {
            return;
        }
        try {
            String now = Instant.now().toString();
            var meta = target.getMetadata();
            client.v1().events().inNamespace(meta.getNamespace()).resource(new EventBuilder()
                    .withNewMetadata().withGenerateName(meta.getName() + ".gate.").withNamespace(meta.getNamespace())
                    .endMetadata()
                    .withInvolvedObject(new ObjectReferenceBuilder().withApiVersion(target.getApiVersion())
                            .withKind(target.getKind()).withName(meta.getName()).withNamespace(meta.getNamespace())
                            .withUid(meta.getUid()).build())
                    .withType(next.upgradeable() ? "Normal" : "Warning")
                    .withReason(next.upgradeable() ? "Upgradeable" : "NotUpgradeable")
                    .withMessage(truncate(next.reason() + ": " + next.message(), 1024))
                    .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                    .withNewSource().withComponent("hco-operator").endSource()
                    .build()).create();
        } catch (RuntimeException e) {
            LOG.warnf("could not record the gate transition as an Event: %s", e.getMessage());
        }
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }
}
