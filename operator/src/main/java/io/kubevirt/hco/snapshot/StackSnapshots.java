package io.kubevirt.hco.snapshot;

import io.kubevirt.hco.core.ConditionTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.RecordedVersion;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.config.OperatorSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.api.reconciler.ResourceCache;
import io.kubevirt.hco.components.ObservationReader;
import io.kubevirt.hco.core.ComponentEnablement;
import io.kubevirt.hco.core.ComponentEnablement.Resolution;
import io.kubevirt.hco.core.ComponentExpectation;
import io.kubevirt.hco.core.ComponentObservation;
import io.kubevirt.hco.core.GateInput;
import io.kubevirt.hco.core.StackConditions;
import io.kubevirt.hco.core.HyperConvergedObservation;
import io.kubevirt.hco.lifecycle.ProcessLifecycle;

/** Turns what the caches (or fresh reads) show into the immutable {@link GateInput} the core decides on. */
@ApplicationScoped
public class StackSnapshots {

    /** The process environment as MicroProfile Config reads it (the component env vars are not hco.* settings). */
    @Inject
    Config config;

    public static final String OPERATOR_VERSION_RECORD = "operator";

    @Inject
    ProcessLifecycle lifecycle;

    @Inject
    WrittenSpecs written;

    @Inject
    KubernetesClient client;

    @Inject
    OperatorSettings settings;

    @Inject
    ConfirmationReads confirmation;

    public List<ComponentDescriptor> components() {
        return ComponentCatalog.ALL;
    }

    /**
     * @param desired the spec each component should have (null when there is no HyperConverged to
     *        derive it from: no spec counts as in sync then)
     */
    public GateInput snapshot(HyperConvergedObservation hco, Function<ComponentDescriptor, GenericKubernetesResource> lookup,
            Map<ComponentDescriptor, Map<String, Object>> desired, String evaluationError) {
        return snapshot(hco, lookup, desired, evaluationError, ComponentInstallation.allEnabled());
    }

    /**
     * @param installed which components are part of the stack: the others are listed as not
     *        installed; one whose CRD is missing is seen as such (and holds the gate)
     */
    public GateInput snapshot(HyperConvergedObservation hco, Function<ComponentDescriptor, GenericKubernetesResource> lookup,
            Map<ComponentDescriptor, Map<String, Object>> desired, String evaluationError,
            Map<ComponentDescriptor, Resolution> installed) {
        List<GateInput.Component> components = new ArrayList<>();
        Map<String, String> notInstalled = new java.util.TreeMap<>();
        for (ComponentDescriptor d : components()) {
            Resolution resolution = installed.get(d);
            if (resolution != null && resolution.state() == ComponentEnablement.State.NOT_INSTALLED) {
                notInstalled.put(d.name(), resolution.message());
                continue;
            }
            if (resolution != null && resolution.state() == ComponentEnablement.State.CRD_MISSING) {
                components.add(new GateInput.Component(expectation(d), ComponentObservation.crdMissing(resolution.message())));
                continue;
            }
            GenericKubernetesResource cr = lookup.apply(d);
            ComponentObservation observation = ObservationReader.read(d, cr);
            if (cr != null) {
                observation = observation.withSpec(written.specState(d, cr, desired == null ? null : desired.get(d)));
            }
            components.add(new GateInput.Component(expectation(d), observation));
        }
        return new GateInput(lifecycle.now(), lifecycle.operatorVersion(), lifecycle.isFullReconcileDone(), lifecycle.leader(), hco,
                components, evaluationError, notInstalled);
    }

    /**
     * The same snapshot from quorum reads of the API server instead of the caches: the HyperConverged
     * and every component CR of the stack as they are now ({@link ConfirmationReads}: a round sent
     * ahead of this pass stands in when it is young enough and found what the caches hold). A
     * HyperConverged whose generation moved past the one this pass applied is reported as not observed.
     *
     * @param appliedGeneration the generation whose spec this pass applied (null: none)
     * @param cached the pass's snapshot, taken from the caches: its time, and the objects it read
     */
    public GateInput freshSnapshot(Long appliedGeneration, Map<ComponentDescriptor, Map<String, Object>> desired,
            Map<ComponentDescriptor, Resolution> installed, CachedView cached) {
        // only the components of the stack are read: one not installed, or whose CRD is missing, costs no request
        List<ComponentDescriptor> stack = readable(installed);
        ConfirmationReads.Round round = cached == null ? null
                : confirmation.aheadMatching(cached.snapshotAt(), cached.hyperConverged(), cached.components(), stack);
        if (round == null) {
            round = confirmation.now(stack);
        }
        ConfirmationReads.Round fresh = round;
        return snapshot(observe(fresh.hyperConverged(), appliedGeneration),
                d -> fresh.components().containsKey(d) ? fresh.components().get(d) : freshComponent(d), desired, null,
                installed);
    }

    /** What a pass's snapshot was taken from: when, the cached HyperConverged, and the component caches. */
    public record CachedView(java.time.Instant snapshotAt, HyperConverged hyperConverged,
            Function<ComponentDescriptor, GenericKubernetesResource> components) {
    }

    /**
     * Plans the confirmation of an opening expected {@code untilPass} from now: its reads go out
     * ahead of the pass ({@link ConfirmationReads#aheadOf}); null cancels a plan (no opening is due).
     */
    public void openingExpectedIn(java.time.Duration untilPass, Map<ComponentDescriptor, Resolution> installed) {
        if (untilPass == null) {
            confirmation.cancelAhead();
        } else {
            confirmation.aheadOf(untilPass, readable(installed));
        }
    }

    /** The components whose CRs a confirmation reads: those of the stack whose CRD is served. */
    private List<ComponentDescriptor> readable(Map<ComponentDescriptor, Resolution> installed) {
        List<ComponentDescriptor> stack = new ArrayList<>();
        for (ComponentDescriptor d : components()) {
            Resolution resolution = installed.get(d);
            if (resolution == null || resolution.state() == ComponentEnablement.State.ENABLED) {
                stack.add(d);
            }
        }
        return stack;
    }

    /**
     * The reconciler's cache of HyperConverged resources, handed over when its controller is set up
     * (JOSDK's primary cache; null until then).
     */
    private volatile ResourceCache<HyperConverged> primaryCache;

    public void followPrimaryCache(ResourceCache<HyperConverged> cache) {
        primaryCache = cache;
    }

    /**
     * Whether the reconciler's cache holds the HyperConverged singleton: its passes then take the
     * gate (a deletion reaches them through the same cache), so nothing needs reading to know the
     * stack is there. False when the cache is not set up or cannot answer.
     */
    public boolean hyperConvergedCached() {
        ResourceCache<HyperConverged> cache = primaryCache;
        if (cache == null) {
            return false;
        }
        try {
            return cache.get(new ResourceID(HyperConverged.SINGLETON_NAME, settings.namespace())).isPresent();
        } catch (RuntimeException notStarted) {
            return false;
        }
    }

    /** The HyperConverged singleton as the API server has it now (a quorum read); null when there is none. */
    public HyperConverged freshHyperConverged() {
        return client.resources(HyperConverged.class).inNamespace(settings.namespace())
                .withName(HyperConverged.SINGLETON_NAME).get();
    }

    /** Every managed component CR as the API server has it now (quorum reads); absent ones are not in the map. */
    public Map<ComponentDescriptor, GenericKubernetesResource> freshComponents() {
        Map<ComponentDescriptor, GenericKubernetesResource> fresh = new java.util.HashMap<>();
        for (ComponentDescriptor d : components()) {
            GenericKubernetesResource cr = freshComponent(d);
            if (cr != null) {
                fresh.put(d, cr);
            }
        }
        return fresh;
    }

    /** The component's managed CR as the API server has it now (a quorum read); null when absent. */
    public GenericKubernetesResource freshComponent(ComponentDescriptor d) {
        return ComponentResources.managed(client, d, settings.namespace()).get();
    }

    public ComponentExpectation expectation(ComponentDescriptor d) {
        return new ComponentExpectation(d.name(), expectedVersion(d), d.evidence(), d.targetVersionField() != null,
                written.lastWrite(d.name()));
    }

    /**
     * The version the release expects of a component (its env var; the chart and the CSV set them).
     * Read once: the environment of a running process does not change, and every snapshot asks.
     */
    String expectedVersion(ComponentDescriptor d) {
        return expectedVersions.computeIfAbsent(d.name(), n -> config.getOptionalValue(d.versionEnv(), String.class)
                .filter(v -> !v.isBlank())).orElse(null);
    }

    private final Map<String, java.util.Optional<String>> expectedVersions = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param appliedGeneration the generation whose spec this pass applied to the components (null: none)
     */
    public static HyperConvergedObservation observe(HyperConverged hco, Long appliedGeneration) {
        if (hco == null) {
            return HyperConvergedObservation.absent();
        }
        Long generation = hco.getMetadata().getGeneration();
        return new HyperConvergedObservation(true, hco.getMetadata().getDeletionTimestamp() != null,
                generation == null ? 0 : generation, appliedGeneration, recordedVersion(hco));
    }

    public static String recordedVersion(HyperConverged hco) {
        if (hco.getStatus() == null || hco.getStatus().versions == null) {
            return null;
        }
        return hco.getStatus().versions.stream().filter(v -> OPERATOR_VERSION_RECORD.equals(v.name))
                .map((RecordedVersion v) -> v.version).findFirst().orElse(null);
    }

    /** The Upgradeable condition the leader published in the HyperConverged status; null when none. */
    public static io.kubevirt.hco.api.v1beta1.StatusCondition publishedUpgradeable(HyperConverged hco) {
        if (hco.getStatus() == null || hco.getStatus().conditions == null) {
            return null;
        }
        return hco.getStatus().conditions.stream().filter(c -> ConditionTypes.UPGRADEABLE.equals(c.type)).findFirst()
                .orElse(null);
    }
}
