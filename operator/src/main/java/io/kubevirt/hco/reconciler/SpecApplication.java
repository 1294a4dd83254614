package io.kubevirt.hco.reconciler;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.InvalidSpecException;
import io.kubevirt.hco.components.SpecContext;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.ComponentEnablement.Resolution;
import io.kubevirt.hco.lifecycle.ProcessLifecycle;
import io.kubevirt.hco.observability.LogContext;
import io.kubevirt.hco.snapshot.ComponentInstallation;

/**
 * One pass's writes: which components are part of the stack (their informers follow), and the
 * spec each of them gets from the HyperConverged, applied. What kept the pass from applying is
 * kept for the status, never thrown past the decision: the gate decides on every pass.
 */
@ApplicationScoped
public class SpecApplication {

    private static final Logger LOG = Logger.getLogger(SpecApplication.class);

    @Inject
    OperatorSettings settings;

    @Inject
    ProcessLifecycle lifecycle;

    @Inject
    ComponentWriter componentWriter;

    @Inject
    ComponentInstallation installation;

    @Inject
    SpecContexts specContexts;

    @Inject
    StackInformers informers;

    @Inject
    DeclaredFields declaredFields;

    /** What one pass applied: the specs, and what kept it from applying them. */
    public static final class Pass {
        final Map<ComponentDescriptor, Map<String, Object>> desired = new LinkedHashMap<>();
        Map<ComponentDescriptor, Resolution> installed = ComponentInstallation.allEnabled();
        boolean resolved;
        Long applied;
        Duration held;
        String invalid;
        String misconfigured;
        RuntimeException failure;

        String error() {
            return misconfigured != null ? "the operator's configuration is invalid: " + misconfigured
                    : failure != null ? "applying component specs failed: " + failure.getMessage()
                    : invalid != null ? "the HyperConverged cannot be applied: " + invalid : null;
        }
    }

    /**
     * What one component's spec was last rendered from, and the result: a pass renders again only
     * when the HyperConverged's spec (its generation), the context or the component's CRD changed.
     * (Bench: rendering and pruning four specs was a third of a pass that writes nothing.) The
     * same map is then handed out again: nothing downstream modifies a desired spec.
     */
    private record Rendering(long generation, SpecContext context, String crdVersion, Map<String, Object> spec) {
    }

    private final Map<String, Rendering> renderings = new java.util.concurrent.ConcurrentHashMap<>();

    private Map<String, Object> rendered(ComponentDescriptor d, HyperConverged hco, SpecContext context,
            io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition crd) {
        Long generation = hco.getMetadata().getGeneration();
        String crdVersion = crd == null ? null : crd.getMetadata().getResourceVersion();
        Rendering last = renderings.get(d.name());
        if (generation != null && last != null && last.generation() == generation && last.context().equals(context)
                && java.util.Objects.equals(last.crdVersion(), crdVersion)) {
            return last.spec();
        }
        Map<String, Object> spec = declaredFields.only(d, d.desiredSpec(hco.getSpec(), context), crd);
        if (generation != null && (crd == null || crdVersion != null)) {
            renderings.put(d.name(), new Rendering(generation, context, crdVersion, spec));
        }
        return spec;
    }

    /** Resolves which components are part of the stack and applies the specs the HyperConverged implies to them. */
    public Pass apply(HyperConverged hco, Context<HyperConverged> context) {
        Pass pass = new Pass();
        try {
            pass.installed = installation.resolve(hco, d -> informers.crd(context, d));
            pass.resolved = true;
            informers.follow(context, pass.installed);
            List<ComponentDescriptor> stack = ComponentInstallation.partOfStack(pass.installed);
            SpecContext specContext = specContexts.of(hco, lifecycle.operatorVersion(), informers.workerNodes(),
                    stack.stream().map(ComponentDescriptor::name).collect(Collectors.toSet()));
            for (ComponentDescriptor d : ComponentCatalog.ALL) {
                if (pass.installed.get(d).managed()) {
                    try {
                        pass.desired.put(d, rendered(d, hco, specContext, informers.crd(context, d)));
                    } catch (InvalidSpecException e) {
                        // the user's input cannot be applied: said in the status, component CRs left as
                        // they are, nothing retried until the HyperConverged changes
                        pass.invalid = pass.invalid == null ? e.getMessage() : pass.invalid + "; " + e.getMessage();
                    }
                }
            }
            if (pass.invalid == null) {
                for (var e : pass.desired.entrySet()) {
                    try (var log = LogContext.component(e.getKey().name(), hco.getMetadata().getGeneration())) {
                        componentWriter.apply(e.getKey(), informers.component(context, e.getKey()), e.getValue(),
                                settings.namespace(), settings.namespace() + "." + HyperConverged.SINGLETON_NAME);
                    }
                }
                pass.held = componentWriter.takeHeldWrites();
                pass.applied = pass.held == null ? hco.getMetadata().getGeneration() : null;
            } else {
                LOG.warnf("the HyperConverged cannot be applied: %s", pass.invalid);
            }
            lifecycle.fullReconcileDone();
        } catch (ComponentInstallation.InvalidSetting e) {
            // not retried: the environment does not change under a running process
            pass.misconfigured = e.getMessage();
            LOG.errorf("the operator's configuration is invalid: %s", pass.misconfigured);
        } catch (RuntimeException e) {
            pass.failure = e;
            LOG.warnf("applying component specs failed: %s", e.getMessage());
        }
        return pass;
    }
}
