package io.kubevirt.hco.reconciler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.kubevirt.hco.components.ComponentDescriptor;
import io.kubevirt.hco.components.CrdSchemaPruning;
import io.kubevirt.hco.components.SpecJson;
import io.kubevirt.hco.config.OperatorSettings;

/**
 * A component spec without the fields the installed component CRD does not declare (an older
 * component release): server-side apply would refuse the whole write. Logged once per set of
 * fields; with {@code HCO_FIELD_VALIDATION=Strict} nothing is dropped and the write is refused instead.
 */
@ApplicationScoped
public class DeclaredFields {

    private static final Logger LOG = Logger.getLogger(DeclaredFields.class);

    @Inject
    OperatorSettings settings;

    private final Map<String, List<String>> droppedFields = new ConcurrentHashMap<>();
    /** Per component: its CRD's spec schema as JSON, converted once per CRD resourceVersion (KubeVirt's is ~460 KB). */
    private final Map<String, SpecSchema> specSchemas = new ConcurrentHashMap<>();

    private record SpecSchema(String resourceVersion, Map<String, Object> schema) {
    }

    public Map<String, Object> only(ComponentDescriptor d, Map<String, Object> spec, CustomResourceDefinition crd) {
        if (crd == null || "Strict".equalsIgnoreCase(settings.components().fieldValidation())) {
            return spec;
        }
        List<String> dropped = new ArrayList<>();
        Map<String, Object> out = CrdSchemaPruning.prune(spec, specSchema(d, crd), dropped);
        if (!dropped.isEmpty() && !dropped.equals(droppedFields.put(d.name(), dropped))) {
            LOG.warnf("%s: the installed CRD %s does not declare spec%s; left out of the write (an older %s release?)",
                    d.name(), d.crdName(), String.join(", spec", dropped), d.kind());
        }
        return out;
    }

    private Map<String, Object> specSchema(ComponentDescriptor d, CustomResourceDefinition crd) {
        String rv = crd.getMetadata().getResourceVersion();
        SpecSchema cached = specSchemas.get(d.name());
        if (cached != null && rv != null && rv.equals(cached.resourceVersion())) {
            return cached.schema();
        }
        Map<String, Object> schema = crd.getSpec().getVersions().stream().filter(v -> d.version().equals(v.getName()))
                .findFirst().filter(v -> v.getSchema() != null && v.getSchema().getOpenAPIV3Schema() != null
                        && v.getSchema().getOpenAPIV3Schema().getProperties() != null)
                .map(v -> v.getSchema().getOpenAPIV3Schema().getProperties().get("spec"))
                .map(SpecJson::toMap).orElse(null);
        specSchemas.put(d.name(), new SpecSchema(rv, schema));
        return schema;
    }
}
