package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.components.ComponentResources;

/**
 * Which components make up the stack, on a real API server: SSP on auto joins only where
 * OpenShift's templates API is served (upstream deploys it only on OpenShift), a disabled component
 * is neither written nor waited on, and a component of the stack whose CRD goes away closes the gate
 * until it is back or disabled — never silently dropped.
 */
class ComponentSelectionIT extends E2eScenario {

    @Test
    void sspOnAutoStaysOutOfAVanillaClusterAndTheStackStillOpens() throws Exception {
        olm.withoutComponent("SSP").installCsv("1.0.0");
        OperatorProcess op = operator("hco-auto", "1.0.0", Map.of("HCO_COMPONENT_SSP", "auto"));
        createHyperConverged();
        simulator.watch();
        within(60).until(() -> olm.saw("1.0.0", "True"));

        assertThat(ComponentResources.managed(admin, ComponentCatalog.SSP, NS).get())
                .as("no SSP CR without OpenShift's templates API").isNull();
        String explain = op.getPatiently("/q/hco/gate?format=text", null);
        assertThat(explain).contains("SSP", "NotInstalled", "template.openshift.io");
        assertThat(cluster.hyperConverged(HyperConverged.SINGLETON_NAME).getStatus().relatedObjects)
                .as("the status lists what the stack is made of").noneMatch(r -> "SSP".equals(r.kind)).hasSize(3);
    }

    @Test
    void sspOnAutoJoinsWhereTheTemplatesApiIsServed() throws Exception {
        ClusterSetup.serveOpenShiftTemplates(admin);
        olm.installCsv("1.0.0");
        operator("hco-openshift", "1.0.0", Map.of("HCO_COMPONENT_SSP", "auto"));
        createHyperConverged();
        simulator.watch();
        within(60).until(() -> olm.saw("1.0.0", "True"));
        assertThat(ComponentResources.managed(admin, ComponentCatalog.SSP, NS).get()).as("SSP written").isNotNull();
    }

    @Test
    void aComponentWhoseCrdGoesAwayClosesTheGateUntilItIsDisabled() throws Exception {
        OperatorProcess op = installedAndUpgradeable("1.0.0");
        admin.apiextensions().v1().customResourceDefinitions().withName(ComponentCatalog.CDI.crdName()).delete();

        within(60).until(() -> "False/ComponentCrdMissing".equals(olm.last("1.0.0")));
        String explain = op.getPatiently("/q/hco/gate?format=text", null);
        assertThat(explain).as(explain).contains("ComponentCrdMissing", "cdis.cdi.kubevirt.io", "HCO_COMPONENT_CDI=disabled");

        // the administrator's answer: run the stack without CDI
        op.close();
        operators.remove(op);
        olm.withoutComponent("CDI");
        operator("hco-without-cdi", "1.0.0", Map.of("HCO_COMPONENT_CDI", "disabled"));
        within(60).until(() -> "True/AsExpected".equals(olm.last("1.0.0")));
        assertThat(cluster.hyperConverged(HyperConverged.SINGLETON_NAME).getStatus().relatedObjects)
                .noneMatch(r -> "CDI".equals(r.kind));
    }
}
