package io.kubevirt.hco.components;

import java.util.Map;

import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;

/** The SSP CR's spec as upstream HCO derives it: common templates (in "openshift" unless set), the template validator, TLS. */
final class SspSpec {

    static final String DEFAULT_TEMPLATES_NAMESPACE = "openshift";
    static final int TEMPLATE_VALIDATOR_REPLICAS = 2;

    private SspSpec() {
    }

    static Map<String, Object> of(HyperConvergedSpec spec, SpecContext ctx) {
        String namespace = spec.commonTemplatesNamespace == null || spec.commonTemplatesNamespace.isBlank()
                ? DEFAULT_TEMPLATES_NAMESPACE : spec.commonTemplatesNamespace;
        Fields out = Fields.object()
                .put("templateValidator", Fields.object().put("replicas", TEMPLATE_VALIDATOR_REPLICAS)
                        .put("placement", spec.infra == null ? null : SpecJson.toMap(spec.infra.nodePlacement)))
                .put("commonTemplates", Fields.object().put("namespace", namespace)
                        .put("dataImportCronTemplates", spec.dataImportCronTemplates == null ? null
                                : spec.dataImportCronTemplates.stream().map(SpecJson::toMap).toList()))
                .put("enableMultipleArchitectures", spec.featureGates.enableMultiArchBootImageImport)
                .put("tlsSecurityProfile", TlsProfiles.asProfile(spec.tlsSecurityProfile));
        if (spec.deployVmConsoleProxy != null) {
            out.put("tokenGenerationService", Map.of("enabled", spec.deployVmConsoleProxy));
        }
        return out.map();
    }
}
