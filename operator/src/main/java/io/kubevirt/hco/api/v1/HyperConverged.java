package io.kubevirt.hco.api.v1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kubevirt.hco.api.v1beta1.HyperConvergedStatus;

/**
 * Upstream's v1 form of the HyperConverged: the same settings as v1beta1 grouped by concern
 * (virtualization, storage, networking, workload sources, security, deployment), feature gates as a
 * list. Served, not stored: the API server stores v1beta1 (upstream's storage version) and the
 * operator's conversion webhook translates ({@code api.conversion.HyperConvergedConversion}). The
 * operator itself reads v1beta1 only; this class exists for the CRD's v1 schema.
 */
@Group(io.kubevirt.hco.api.v1beta1.HyperConverged.GROUP)
@Version(value = HyperConverged.VERSION, storage = false, served = false)
@Kind("HyperConverged")
@Plural("hyperconvergeds")
@ShortNames({ "hco", "hcos" })
@Categories("all")
@ValidationRule(value = "self.metadata.name == 'kubevirt-hyperconverged'",
        message = "invalid metadata.name: the HyperConverged is a singleton named kubevirt-hyperconverged")
@AdditionalPrinterColumn(name = "Available", type = AdditionalPrinterColumn.Type.STRING,
        jsonPath = ".status.conditions[?(@.type==\"Available\")].status")
@AdditionalPrinterColumn(name = "Progressing", type = AdditionalPrinterColumn.Type.STRING,
        jsonPath = ".status.conditions[?(@.type==\"Progressing\")].status")
@AdditionalPrinterColumn(name = "Degraded", type = AdditionalPrinterColumn.Type.STRING,
        jsonPath = ".status.conditions[?(@.type==\"Degraded\")].status")
@AdditionalPrinterColumn(name = "Upgradeable", type = AdditionalPrinterColumn.Type.STRING,
        jsonPath = ".status.conditions[?(@.type==\"Upgradeable\")].status")
@AdditionalPrinterColumn(name = "Version", type = AdditionalPrinterColumn.Type.STRING,
        jsonPath = ".status.versions[?(@.name==\"operator\")].version")
@AdditionalPrinterColumn(name = "Reason", type = AdditionalPrinterColumn.Type.STRING, priority = 1,
        jsonPath = ".status.conditions[?(@.type==\"Upgradeable\")].reason")
@AdditionalPrinterColumn(name = "Blocked-By", type = AdditionalPrinterColumn.Type.STRING, priority = 1,
        jsonPath = ".status.blockers[0].component")
@AdditionalPrinterColumn(name = "Age", type = AdditionalPrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
public class HyperConverged extends CustomResource<HyperConvergedSpec, HyperConvergedStatus> implements Namespaced {

    public static final String VERSION = "v1";
}
