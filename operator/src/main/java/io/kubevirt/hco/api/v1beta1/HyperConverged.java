package io.kubevirt.hco.api.v1beta1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** The one resource the user writes: the whole hyperconverged stack, declared once. */
@Group(HyperConverged.GROUP)
@Version(HyperConverged.VERSION)
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

    public static final String GROUP = "hco.kubevirt.io";
    public static final String VERSION = "v1beta1";
    /** The only name that is reconciled; any other HyperConverged is rejected through its status. */
    public static final String SINGLETON_NAME = "kubevirt-hyperconverged";

    @Override
    protected HyperConvergedSpec initSpec() {
        return new HyperConvergedSpec();
    }

    @Override
    protected HyperConvergedStatus initStatus() {
        return new HyperConvergedStatus();
    }
}
