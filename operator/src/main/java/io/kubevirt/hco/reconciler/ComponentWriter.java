package io.kubevirt.hco.reconciler;

import static io.kubevirt.hco.snapshot.WrittenSpecs.annotation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.components.Fingerprints;
import io.kubevirt.hco.components.ObservationReader;
import io.kubevirt.hco.components.OwnedFields;
import io.kubevirt.hco.components.SpecJson;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.WriteRecord;
import io.kubevirt.hco.observability.GateMetrics;
import io.kubevirt.hco.snapshot.WrittenSpecs;

/**
 * Keeps the fields this operator owns in one component CR equal to what the HyperConverged spec
 * implies, with server-side apply under its own field manager. Only the owned fields are compared:
 * the API server's defaults, pruning and mutating admission, and other writers' fields, cause no
 * write. When the CR does not contain our fields as we would write them, a dry-run apply asks the
 * API server what our apply would make of it: no change means the server already holds our intent
 * in its own form (remembered, so it costs one dry run); a change is written, and counted as an
 * out-of-band modification when the HyperConverged had not changed since our last write.
 * <p>
 * Each spec write records on the CR the fingerprint of the status as it stood (the write is tested
 * against the resourceVersion read, so that status is exact): a component that reports no
 * observedGeneration proves it wrote after our spec by changing its status from that fingerprint.
 */
@ApplicationScoped
public class ComponentWriter {

    private static final Logger LOG = Logger.getLogger(ComponentWriter.class);
    public static final String FIELD_MANAGER = "hco-operator";
    /** The fingerprint of the part of our intent the component's status follows ({@link ComponentDescriptor#renderedSpec}). */
    public static final String RENDERED_HASH = "hco.kubevirt.io/rendered-hash";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String PART_OF = "app.kubernetes.io/part-of";
    public static final String OWNER = "hco.kubevirt.io/owner";

    @Inject
    KubernetesClient client;

    @Inject
    GateMetrics metrics;

    @Inject
    OperatorSettings settings;

    @Inject
    WrittenSpecs written;

    /** Per component: the desired-spec fingerprint whose dropped fields were already reported. */
    private final Map<String, String> droppedReported = new ConcurrentHashMap<>();

    /**
     * How long after a component's last status write a spec write waits. A component whose only
     * evidence is a status written after our spec write (CDI, cluster-network-addons) may compute,
     * for our new spec, the very status it wrote just before it (same conditions, heartbeat in the
     * same second), and then writes nothing: the gate would wait for a change that never comes. A
     * second later its heartbeat, in whole seconds, cannot be the same, whatever its clock's offset.
     */
    static final java.time.Duration STATUS_QUIET = java.time.Duration.ofSeconds(1);

    /** Per component: the status last seen, and when (monotonic nanos) this process first saw it. */
    private final Map<String, SeenStatus> statusSeen = new ConcurrentHashMap<>();
    /** Per component: a spec write held back, and for how long still. */
    private final Map<String, java.time.Duration> held = new ConcurrentHashMap<>();
    private volatile java.util.function.LongSupplier ticks = System::nanoTime;

    private record SeenStatus(String fingerprint, long seenAt) {
    }

    /** @return the write's record, or null when the CR already matched and nothing was written */
    public WriteRecord apply(ComponentDescriptor d, GenericKubernetesResource current, Map<String, Object> desired,
            String namespace, String owner) {
        String hash = Fingerprints.ofDesired(d, desired);
        current = written.newest(d, current);
        if (current == null) {
            GenericKubernetesResource created = write(d, namespace,
                    intent(d, namespace, owner, hash, ObservationReader.statusFingerprint(null), desired, null), null);
            LOG.infof("created %s %s", d.kind(), d.crName());
            return record(d, hash, desired, created);
        }
        boolean sameIntent = hash.equals(annotation(current, WrittenSpecs.SPEC_HASH));
        boolean specInSync = written.inSync(d, current, desired);
        if (specInSync && !sameIntent) {
            // our intent changed, yet every field of it is there already: what changed may be a
            // removal (a field we set before and set no more), which the write takes out of the spec
            specInSync = !writeChangesSpec(d, current, desired, namespace, owner, hash);
        } else if (!specInSync && settings.components().serverSideApply()) {
            specInSync = serverKeepsIt(d, current, desired, namespace, owner, hash);
        }
        String recordedStatus = annotation(current, ObservationReader.STATUS_AT_SPEC_WRITE);
        // a write that leaves the spec as it is (labels, annotations), or changes only what the
        // component does not render, keeps the record: the component has nothing new to report,
        // and would not write its status again for it
        String renderedHash = renderedHash(d, desired, hash);
        boolean keepsRecord = recordedStatus != null
                && (specInSync || rendersAsBefore(d, current, desired, renderedHash));
        java.time.Duration hold = specInSync || keepsRecord ? java.time.Duration.ZERO : holdBeforeSpecWrite(d, current);
        if (!hold.isZero()) {
            held.put(d.name(), hold);
            LOG.debugf("%s %s: spec write held for %s ms after its last status write", d.kind(), d.crName(),
                    hold.toMillis());
            return null;
        }
        boolean metadataInSync = recordedStatus != null && sameIntent
                && owner.equals(labels(current).get(OWNER)) && labels(current).containsKey(MANAGED_BY)
                && carries(current, d.annotations(desired))
                && renderedHash.equals(annotation(current, RENDERED_HASH));
        if (specInSync && metadataInSync) {
            return null;
        }
        boolean outOfBand = !specInSync && sameIntent;
        // a CR another manager created with our intent already in it (an upstream install taken
        // over) gets no record to wait for: our write leaves its spec as it is, and the real
        // CDI and CNAO would never write their status for it. Any other write records the status
        // as it stands now; the write is tested against the resourceVersion read, so "now" is
        // exactly this status (a 409 retries on fresh data)
        String statusAtWrite = keepsRecord ? recordedStatus
                : specInSync && recordedStatus == null ? ObservationReader.NO_STATUS
                : ObservationReader.statusFingerprint(current);
        GenericKubernetesResource result = write(d, namespace,
                intent(d, namespace, owner, hash, statusAtWrite, desired, current.getMetadata().getResourceVersion()),
                current);
        if (outOfBand) {
            // counted once the revert is written: a write refused (409, the component wrote its
            // status meanwhile) is retried on fresh data and must not count the same edit twice
            metrics.outOfBandModification(d.name());
            LOG.warnf("%s %s: fields owned by the HyperConverged were changed outside it (first: %s); reverted them "
                    + "(edit the HyperConverged instead)", d.kind(), d.crName(),
                    OwnedFields.firstDifference(desired, current.getAdditionalProperties().get("spec")));
        }
        LOG.infof("updated %s %s (%s)", d.kind(), d.crName(), specInSync ? "labels and annotations" : "spec");
        return record(d, hash, desired, result);
    }

    /**
     * Whether the part of our intent the component renders is what our last write gave it, and is
     * there as we wrote it (an out-of-band edit of it is reverted with a new record: the component
     * rolls its operands back). Only components with {@code renderedPaths} can tell: for the others
     * the rendered part is the whole spec, and a spec write changes it.
     */
    private static boolean rendersAsBefore(ComponentDescriptor d, GenericKubernetesResource current,
            Map<String, Object> desired, String renderedHash) {
        return d.renderedPaths() != null && renderedHash.equals(annotation(current, RENDERED_HASH))
                && OwnedFields.contained(d.renderedSpec(desired), current.getAdditionalProperties().get("spec"));
    }

    /** The RENDERED_HASH of a desired spec: its whole fingerprint ({@code hash}) unless the component renders only part of it. */
    private static String renderedHash(ComponentDescriptor d, Map<String, Object> desired, String hash) {
        return d.renderedPaths() == null ? hash
                : Fingerprints.of("rendered/" + d.name(), desired, () -> d.renderedSpec(desired));
    }

    /** See {@link #STATUS_QUIET}; zero when the write may go now. */
    private java.time.Duration holdBeforeSpecWrite(ComponentDescriptor d, GenericKubernetesResource current) {
        String status = ObservationReader.statusFingerprint(current);
        if (d.evidence() != io.kubevirt.hco.core.ObservationEvidence.STATUS_WRITTEN_AFTER_SPEC
                || ObservationReader.NO_STATUS.equals(status)) {
            return java.time.Duration.ZERO;
        }
        long now = ticks.getAsLong();
        SeenStatus seen = statusSeen.compute(d.name(),
                (name, before) -> before != null && before.fingerprint().equals(status) ? before : new SeenStatus(status, now));
        long waited = now - seen.seenAt();
        return waited >= STATUS_QUIET.toNanos() ? java.time.Duration.ZERO : java.time.Duration.ofNanos(STATUS_QUIET.toNanos() - waited);
    }

    /** The monotonic tick the hold is measured on (a method: tests reach the bean through its proxy). */
    void useTicks(java.util.function.LongSupplier nanoTicks) {
        this.ticks = nanoTicks;
    }

    /** The longest spec write held back since the last call (null when none): the reconcile comes back after it. */
    public java.time.Duration takeHeldWrites() {
        java.time.Duration longest = held.values().stream().max(java.time.Duration::compareTo).orElse(null);
        held.clear();
        return longest;
    }

    public void delete(ComponentDescriptor d, String namespace) {
        ComponentResources.managed(client, d, namespace).delete();
    }

    /** A dry-run apply: would the API server change the spec? When not, remember its form of our intent. */
    private boolean serverKeepsIt(ComponentDescriptor d, GenericKubernetesResource current, Map<String, Object> desired,
            String namespace, String owner, String hash) {
        Object currentSpec = current.getAdditionalProperties().get("spec");
        if (SpecJson.sameJson(specAfterApply(d, current, desired, namespace, owner, hash), currentSpec)) {
            written.serverForm(d, hash, currentSpec);
            return true;
        }
        return false;
    }

    /**
     * Whether writing this intent would change the CR's spec. With server-side apply, a dry run
     * answers (fields we applied before and apply no more are removed); without it, the write
     * replaces the spec with the intent.
     */
    private boolean writeChangesSpec(ComponentDescriptor d, GenericKubernetesResource current, Map<String, Object> desired,
            String namespace, String owner, String hash) {
        Object spec = current.getAdditionalProperties().get("spec");
        if (!settings.components().serverSideApply()) {
            return !SpecJson.sameJson(desired, spec);
        }
        return !SpecJson.sameJson(specAfterApply(d, current, desired, namespace, owner, hash), spec);
    }

    /** The spec the API server would make of applying this intent: a dry run, nothing written. */
    private Object specAfterApply(ComponentDescriptor d, GenericKubernetesResource current, Map<String, Object> desired,
            String namespace, String owner, String hash) {
        GenericKubernetesResource preview = patch(d, namespace, intent(d, namespace, owner, hash,
                annotationOr(current, ObservationReader.STATUS_AT_SPEC_WRITE, "preview"), desired, null), true);
        return preview.getAdditionalProperties().get("spec");
    }

    private GenericKubernetesResource write(ComponentDescriptor d, String namespace, GenericKubernetesResource intent,
            GenericKubernetesResource current) {
        return settings.components().serverSideApply() ? patch(d, namespace, intent, false)
                : withoutServerSideApply(d, namespace, intent, current);
    }

    private GenericKubernetesResource withoutServerSideApply(ComponentDescriptor d, String namespace,
            GenericKubernetesResource intent, GenericKubernetesResource current) {
        if (current == null) {
            return ComponentResources.of(client, d, namespace).resource(intent).create();
        }
        // without server-side apply: a whole-object update carrying the resourceVersion read, our
        // fields merged into what is there
        GenericKubernetesResource cr = new GenericKubernetesResource();
        cr.setApiVersion(current.getApiVersion());
        cr.setKind(current.getKind());
        cr.setMetadata(new ObjectMetaBuilder(current.getMetadata()).build());
        cr.getMetadata().setLabels(merged(current.getMetadata().getLabels(), intent.getMetadata().getLabels()));
        cr.getMetadata().setAnnotations(
                merged(current.getMetadata().getAnnotations(), intent.getMetadata().getAnnotations()));
        cr.getAdditionalProperties().putAll(current.getAdditionalProperties());
        cr.getAdditionalProperties().put("spec", intent.getAdditionalProperties().get("spec"));
        return ComponentResources.of(client, d, namespace).resource(cr).update();
    }

    private GenericKubernetesResource patch(ComponentDescriptor d, String namespace, GenericKubernetesResource intent,
            boolean dryRun) {
        PatchContext.Builder context = new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
                .withFieldManager(FIELD_MANAGER).withForce(true)
                .withFieldValidation(settings.components().fieldValidation());
        if (dryRun) {
            context.withDryRun(List.of("All"));
        }
        return ComponentResources.of(client, d, namespace).resource(intent).patch(context.build(),
                client.getKubernetesSerialization().asJson(intent));
    }

    /**
     * Everything this operator owns in the CR, and nothing else: with server-side apply, a field
     * left out of it would be removed. {@code resourceVersion}, when given, makes the write fail
     * (409) if the CR changed since it was read.
     */
    private static GenericKubernetesResource intent(ComponentDescriptor d, String namespace, String owner, String hash,
            String statusAtWrite, Map<String, Object> desired, String resourceVersion) {
        GenericKubernetesResource cr = new GenericKubernetesResource();
        cr.setApiVersion(d.apiVersion());
        cr.setKind(d.kind());
        Map<String, String> annotations = new LinkedHashMap<>(d.annotations(desired));
        annotations.put(WrittenSpecs.SPEC_HASH, hash);
        annotations.put(RENDERED_HASH, renderedHash(d, desired, hash));
        annotations.put(ObservationReader.STATUS_AT_SPEC_WRITE, statusAtWrite);
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(MANAGED_BY, "hco-operator");
        labels.put(PART_OF, "hyperconverged-cluster");
        labels.put(OWNER, owner);
        cr.setMetadata(new ObjectMetaBuilder().withName(d.crName()).withNamespace(d.namespaced() ? namespace : null)
                .withLabels(labels).withAnnotations(annotations).withResourceVersion(resourceVersion).build());
        cr.getAdditionalProperties().put("spec", desired);
        return cr;
    }

    private WriteRecord record(ComponentDescriptor d, String hash, Map<String, Object> desired,
            GenericKubernetesResource result) {
        Object spec = result.getAdditionalProperties().get("spec");
        written.written(d, hash, result);
        String dropped = OwnedFields.firstDifference(desired, spec);
        if (dropped != null && !hash.equals(droppedReported.put(d.name(), hash))) {
            LOG.warnf("%s %s: the API server did not keep spec%s as written (pruned by an older CRD, defaulted or "
                    + "changed by admission); accepted as the server's form of it, no rewrite", d.kind(), d.crName(),
                    dropped);
        }
        return written.lastWrite(d.name());
    }

    private static Map<String, String> merged(Map<String, String> base, Map<String, String> ours) {
        Map<String, String> out = new LinkedHashMap<>(base == null ? Map.of() : base);
        out.putAll(ours);
        return out;
    }

    private static boolean carries(GenericKubernetesResource cr, Map<String, String> annotations) {
        return annotations.entrySet().stream().allMatch(e -> e.getValue().equals(annotation(cr, e.getKey())));
    }

    private static Map<String, String> labels(GenericKubernetesResource cr) {
        return cr.getMetadata().getLabels() == null ? Map.of() : cr.getMetadata().getLabels();
    }

    private static String annotationOr(GenericKubernetesResource cr, String key, String fallback) {
        String value = annotation(cr, key);
        return value == null ? fallback : value;
    }
}
