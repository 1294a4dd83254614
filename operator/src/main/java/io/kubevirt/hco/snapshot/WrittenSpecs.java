package io.kubevirt.hco.snapshot;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ObservationReader;
import io.kubevirt.hco.components.OwnedFields;
import io.kubevirt.hco.components.Fingerprints;
import io.kubevirt.hco.components.SpecJson;
import io.kubevirt.hco.core.ResourceVersions;
import io.kubevirt.hco.core.SpecState;
import io.kubevirt.hco.core.WriteRecord;

/**
 * What this process last wrote to each component CR, as the API server answered: the writer
 * records here, the snapshots read here (whether a CR holds our current intent, and which write a
 * status must come after).
 */
@ApplicationScoped
public class WrittenSpecs {

    /** The fingerprint of the whole intent, set by the same write as the spec. */
    public static final String SPEC_HASH = "hco.kubevirt.io/spec-hash";

    /** Per component: the spec as the API server keeps our last apply of a given desired spec. */
    private final Map<String, Baseline> baselines = new ConcurrentHashMap<>();
    /** Per component: the object as our last write left it (read-your-writes ahead of the informer cache). */
    private final Map<String, GenericKubernetesResource> lastWritten = new ConcurrentHashMap<>();

    private record Baseline(String desiredHash, Object spec) {
    }

    /** Our write of the intent fingerprinted {@code hash}, as the API server answered it. */
    public void written(ComponentDescriptor d, String hash, GenericKubernetesResource written) {
        serverForm(d, hash, written.getAdditionalProperties().get("spec"));
        lastWritten.put(d.name(), written);
    }

    /** The API server's form of the intent fingerprinted {@code hash} (its defaults, pruning or admission applied). */
    public void serverForm(ComponentDescriptor d, String hash, Object spec) {
        baselines.put(d.name(), new Baseline(hash, SpecJson.normalizeValue(spec)));
    }

    /**
     * The cached CR, unless our own last write is newer than it: a reconcile that runs before the
     * informer delivered that write would otherwise judge (and count, and rewrite) the state our
     * write already replaced. A deleted CR (null) stays null: it must be created again.
     */
    public GenericKubernetesResource newest(ComponentDescriptor d, GenericKubernetesResource cached) {
        GenericKubernetesResource ours = lastWritten.get(d.name());
        if (cached == null || ours == null) {
            return cached;
        }
        boolean oursIsNewer = ResourceVersions.atOrAfter(ours.getMetadata().getResourceVersion(),
                cached.getMetadata().getResourceVersion())
                && !ours.getMetadata().getResourceVersion().equals(cached.getMetadata().getResourceVersion());
        return oursIsNewer ? ours : cached;
    }

    /** What the API server answered to this process's last write of that component; null before the first. */
    public WriteRecord lastWrite(String component) {
        GenericKubernetesResource written = lastWritten.get(component);
        if (written == null) {
            return null;
        }
        Long generation = written.getMetadata().getGeneration();
        return new WriteRecord(written.getMetadata().getResourceVersion(), generation == null ? 0 : generation);
    }

    /**
     * What the gate needs to know of a CR's spec; see {@link SpecState}. In sync means our current
     * intent was written (the CR carries its fingerprint, set by the same write as the spec) and its
     * fields are there: a removal from our intent is in sync only once our write took it out.
     */
    public SpecState specState(ComponentDescriptor d, GenericKubernetesResource cr, Map<String, Object> desired) {
        return new SpecState(desired != null && Fingerprints.ofDesired(d, desired).equals(annotation(cr, SPEC_HASH))
                && inSync(d, cr, desired),
                annotation(cr, ObservationReader.STATUS_AT_SPEC_WRITE), ObservationReader.statusFingerprint(cr));
    }

    /**
     * Our fields are in the CR as we write them, or the CR's spec is what the API server made of
     * our last apply of this same desired spec (its defaults, pruning or admission changed it).
     */
    public boolean inSync(ComponentDescriptor d, GenericKubernetesResource cr, Map<String, Object> desired) {
        Baseline b = baselines.get(d.name());
        String uid = cr.getMetadata() == null ? null : cr.getMetadata().getUid();
        Long generation = cr.getMetadata() == null ? null : cr.getMetadata().getGeneration();
        InSync last = inSync.get(d.name());
        if (last != null && uid != null && generation != null && uid.equals(last.uid())
                && generation == last.generation() && last.desired() == desired && last.baseline() == b) {
            return last.result();
        }
        Object spec = cr.getAdditionalProperties().get("spec");
        boolean result = OwnedFields.contained(desired, spec) || b != null
                && b.desiredHash().equals(Fingerprints.ofDesired(d, desired)) && SpecJson.sameJson(b.spec(), spec);
        if (uid != null && generation != null) {
            inSync.put(d.name(), new InSync(uid, generation, desired, b, result));
        }
        return result;
    }

    /**
     * The last comparison per component. The API server moves a CR's generation whenever its spec
     * changes (its status and metadata do not), so the same object (uid) at the same generation has
     * the same spec: a status change, the usual event, costs no comparison (each one compared every
     * owned field through JSON, twice per pass: the bench's largest cost in a pass's apply and
     * snapshot phases).
     */
    private record InSync(String uid, long generation, Map<String, Object> desired, Baseline baseline, boolean result) {
    }

    private final Map<String, InSync> inSync = new ConcurrentHashMap<>();

    /** The CR's annotation {@code key}; null when the CR or the annotation is absent. */
    public static String annotation(GenericKubernetesResource cr, String key) {
        var annotations = cr == null ? null : cr.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(key);
    }
}
