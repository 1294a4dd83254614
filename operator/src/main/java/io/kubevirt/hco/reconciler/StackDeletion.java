package io.kubevirt.hco.reconciler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.kubevirt.hco.api.v1beta1.GateBlocker;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.ComponentEnablement.Resolution;
import io.kubevirt.hco.gate.GateService;
import io.kubevirt.hco.lifecycle.ProcessLifecycle;
import io.kubevirt.hco.snapshot.ComponentInstallation;
import io.kubevirt.hco.snapshot.StackSnapshots;

/**
 * The HyperConverged is being deleted: the gate closes first, whatever the deletions do; then the
 * component CRs are deleted, and the finalizer goes once none is left. A deletion the API server
 * refuses (KubeVirt's webhook while VMs exist) is listed in the status and retried slowly.
 */
@ApplicationScoped
public class StackDeletion {

    private static final Logger LOG = Logger.getLogger(StackDeletion.class);
    static final Duration DELETION_RECHECK = Duration.ofSeconds(2);
    /** A refused deletion waits for the user: retried slowly. */
    static final Duration DELETION_REFUSED_RETRY = Duration.ofSeconds(15);
    /** The blocker reason in the HyperConverged status when a component CR's deletion is refused. */
    public static final String DELETION_REFUSED = "DeletionRefused";

    @Inject
    OperatorSettings settings;

    @Inject
    ProcessLifecycle lifecycle;

    @Inject
    GateService gate;

    @Inject
    ComponentWriter componentWriter;

    @Inject
    StackSnapshots snapshots;

    @Inject
    HyperConvergedStatusWriter statusWriter;

    @Inject
    ComponentInstallation installation;

    @Inject
    StackInformers informers;

    public DeleteControl cleanup(HyperConverged hco, Context<HyperConverged> context) {
        // this pass looks at every component, so it counts as this process's full pass: a process
        // started while the stack is Terminating says "being deleted", not "Initializing"
        lifecycle.fullReconcileDone();
        // a process started while the stack is Terminating watches the components' CRs first: what
        // it does not see, it could not delete
        Map<ComponentDescriptor, Resolution> installed = ComponentInstallation.allEnabled();
        boolean resolved = false;
        String error = null;
        try {
            installed = installation.resolve(hco, d -> informers.crd(context, d));
            resolved = true;
            informers.follow(context, installed);
        } catch (RuntimeException e) {
            error = "reading which components are installed failed: " + e.getMessage();
        }
        var input = snapshots.snapshot(StackSnapshots.observe(hco, hco.getMetadata().getGeneration()),
                d -> informers.component(context, d), null, error, installed);
        var verdict = gate.verdict(input, hco, null);
        List<GateBlocker> refused = new ArrayList<>();
        boolean remaining = false;
        for (ComponentDescriptor d : ComponentCatalog.ALL) {
            if (informers.component(context, d) == null) {
                continue;
            }
            remaining = true;
            try {
                componentWriter.delete(d, settings.namespace());
            } catch (KubernetesClientException e) {
                String why = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                        : e.getMessage();
                refused.add(new GateBlocker(d.name(), DELETION_REFUSED, "deleting " + d.kind() + " " + d.crName()
                        + " was refused (" + e.getCode() + "): " + why));
            }
        }
        if (!remaining) {
            return DeleteControl.defaultDelete();
        }
        List<GateBlocker> blockers = new ArrayList<>(refused);
        blockers.addAll(HyperConvergedStatusWriter.blockers(verdict.decision()));
        statusWriter.write(context, hco, statusWriter.desired(hco, verdict.conditions(),
                StackSnapshots.recordedVersion(hco), hco.getStatus() == null ? null : hco.getStatus().observedGeneration,
                blockers, resolved ? ComponentInstallation.partOfStack(installed) : null, settings.namespace()));
        if (!refused.isEmpty()) {
            LOG.warnf("HyperConverged is being deleted, but %s; retrying every %s", refused.get(0).message,
                    DELETION_REFUSED_RETRY);
            return DeleteControl.noFinalizerRemoval().rescheduleAfter(DELETION_REFUSED_RETRY);
        }
        LOG.infof("HyperConverged is being deleted: waiting for the component CRs to be removed");
        return DeleteControl.noFinalizerRemoval().rescheduleAfter(DELETION_RECHECK);
    }
}
