package io.kubevirt.hco.reconciler;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.ComponentResources;
import io.kubevirt.hco.components.ObservationReader;
import io.kubevirt.hco.components.SpecJson;
import io.kubevirt.hco.core.WriteRecord;
import io.kubevirt.hco.observability.GateMetrics;

/**
 * Keeps one component CR's spec equal to what the HyperConverged spec implies. Writes only when
 * something differs, so a steady-state reconcile makes no API write. Each write stamps the spec's
 * fingerprint (to tell an out-of-band edit from a HyperConverged change) and the write time (the
 * evidence heartbeat-only components are judged against).
 */
@ApplicationScoped
public class ComponentWriter {

    private static final Logger LOG = Logger.getLogger(ComponentWriter.class);
    public static final String SPEC_HASH = "hco.kubevirt.io/spec-hash";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String PART_OF = "app.kubernetes.io/part-of";
    public static final String OWNER = "hco.kubevirt.io/owner";

    @Inject
    KubernetesClient client;

    @Inject
    GateMetrics metrics;

    /** @return the write's record, or null when the CR already matched and nothing was written */
    public WriteRecord apply(ComponentDescriptor d, GenericKubernetesResource current, Map<String, Object> desired,
            String namespace, String owner) {
        String hash = SpecJson.fingerprint(desired);
        if (current == null) {
            GenericKubernetesResource created = resources(d, namespace).resource(fresh(d, desired, namespace, owner, hash))
                    .create();
            LOG.infof("created %s %s", d.kind(), d.crName());
            return record(created);
        }
        Map<String, String> labels = current.getMetadata().getLabels();
        boolean specMatches = SpecJson.sameJson(current.getAdditionalProperties().get("spec"), desired);
        boolean labelled = labels != null && owner.equals(labels.get(OWNER));
        if (specMatches && labelled) {
            return null;
        }
        if (!specMatches && hash.equals(annotation(current, SPEC_HASH))) {
            metrics.outOfBandModification(d.name());
            LOG.warnf("%s %s: its spec was changed outside the HyperConverged; reverting it (edit the HyperConverged instead)",
                    d.kind(), d.crName());
        }
        // a plain update carrying the cached resourceVersion: if the CR changed since, the API server
        // answers 409 and the reconcile is retried on fresh data instead of overwriting blindly
        GenericKubernetesResource cr = new GenericKubernetesResource();
        cr.setApiVersion(current.getApiVersion());
        cr.setKind(current.getKind());
        cr.setMetadata(new ObjectMetaBuilder(current.getMetadata()).build());
        cr.getMetadata().setLabels(withOwnership(cr.getMetadata().getLabels(), owner));
        Map<String, String> annotations = new LinkedHashMap<>(
                cr.getMetadata().getAnnotations() == null ? Map.of() : cr.getMetadata().getAnnotations());
        if (!specMatches || annotations.get(ObservationReader.SPEC_APPLIED_AT) == null) {
            annotations.put(ObservationReader.SPEC_APPLIED_AT, Instant.now().toString());
        }
        annotations.put(SPEC_HASH, hash);
        cr.getMetadata().setAnnotations(annotations);
        cr.getAdditionalProperties().putAll(current.getAdditionalProperties());
        cr.getAdditionalProperties().put("spec", desired);
        GenericKubernetesResource updated = resources(d, namespace).resource(cr).update();
        LOG.infof("updated %s %s (%s)", d.kind(), d.crName(), specMatches ? "labels" : "spec");
        return record(updated);
    }

    public void delete(ComponentDescriptor d, String namespace) {
        resources(d, namespace).withName(d.crName()).delete();
    }

    private GenericKubernetesResource fresh(ComponentDescriptor d, Map<String, Object> desired, String namespace,
            String owner, String hash) {
        GenericKubernetesResource cr = new GenericKubernetesResource();
        cr.setApiVersion(d.apiVersion());
        cr.setKind(d.kind());
        cr.setMetadata(new ObjectMetaBuilder().withName(d.crName()).withNamespace(d.namespaced() ? namespace : null)
                .withLabels(withOwnership(null, owner))
                .withAnnotations(Map.of(SPEC_HASH, hash, ObservationReader.SPEC_APPLIED_AT, Instant.now().toString()))
                .build());
        cr.getAdditionalProperties().put("spec", desired);
        return cr;
    }

    private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> resources(
            ComponentDescriptor d, String namespace) {
        return ComponentResources.of(client, d, namespace);
    }

    private static Map<String, String> withOwnership(Map<String, String> labels, String owner) {
        Map<String, String> out = new LinkedHashMap<>(labels == null ? Map.of() : labels);
        out.put(MANAGED_BY, "hco-operator");
        out.put(PART_OF, "hyperconverged-cluster");
        out.put(OWNER, owner);
        return out;
    }

    private static String annotation(GenericKubernetesResource cr, String key) {
        var annotations = cr.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(key);
    }

    private static WriteRecord record(GenericKubernetesResource written) {
        Long generation = written.getMetadata().getGeneration();
        return new WriteRecord(written.getMetadata().getResourceVersion(), generation == null ? 0 : generation);
    }
}
