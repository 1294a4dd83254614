package io.kubevirt.hco.health;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.StatusCondition;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.GateDecision;
import io.kubevirt.hco.gate.GateService;
import io.kubevirt.hco.snapshot.StackSnapshots;

/**
 * For readiness gate mode (OLM without OperatorCondition support reads the Deployment's readiness):
 * whether the install or upgrade to this version has settled, i.e. the gate opened — stabilization
 * window included — since this version was recorded. Once settled it stays so until an upgrade is
 * in progress again, so a later degradation does not pull the pods out of their Service.
 * <p>
 * The leader knows from its own decisions. A standby takes no decision (only the leader
 * reconciles), so it reads what the leader persisted in the HyperConverged status — the recorded
 * version and the Upgradeable condition — re-read at most every few seconds: every replica of a
 * Deployment turns ready, and {@code helm install --wait} or a rolling update can finish.
 */
@ApplicationScoped
public class UpgradeSettledLatch {

    static final Duration STANDBY_READ_EVERY = Duration.ofSeconds(2);

    @Inject
    GateService gate;

    @Inject
    io.kubevirt.hco.lifecycle.ProcessLifecycle lifecycle;

    @Inject
    KubernetesClient client;

    @Inject
    OperatorSettings settings;

    private boolean settled;
    private Instant lastRead;

    public synchronized boolean settled() {
        if (lifecycle.leader()) {
            GateDecision decision = gate.current();
            if (decision == null || !lifecycle.isFullReconcileDone()) {
                return settled = false;
            }
            boolean inProgress = decision.assessment().upgrade().inProgress()
                    && gate.currentInput().hyperConverged().present();
            if (inProgress) {
                settled = false;
            } else if (decision.upgradeable()) {
                settled = true;
            }
            return settled;
        }
        Instant now = Instant.now();
        if (lastRead == null || Duration.between(lastRead, now).compareTo(STANDBY_READ_EVERY) >= 0) {
            lastRead = now;
            settled = readByStandby();
        }
        return settled;
    }

    /** The leader's record: our version recorded and, once it was, the gate seen open. */
    private boolean readByStandby() {
        HyperConverged hco;
        try {
            hco = client.resources(HyperConverged.class).inNamespace(settings.namespace())
                    .withName(HyperConverged.SINGLETON_NAME).get();
        } catch (RuntimeException e) {
            return settled;
        }
        if (hco == null) {
            return true;
        }
        if (!Objects.equals(StackSnapshots.recordedVersion(hco), lifecycle.operatorVersion())) {
            return false;
        }
        StatusCondition upgradeable = StackSnapshots.publishedUpgradeable(hco);
        return settled || upgradeable != null && "True".equals(upgradeable.status);
    }
}
