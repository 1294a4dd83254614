package io.kubevirt.hco.devconsole.deployment;

import io.kubevirt.hco.devconsole.DevConsoleJsonRpcService;
import io.quarkus.deployment.IsDevelopment;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;

/** The operator's card in the Dev UI: one page with the live gate, and its JSON-RPC backend. */
class DevConsoleProcessor {

    static final String FEATURE = "hco-dev-console";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    @BuildStep(onlyIf = IsDevelopment.class)
    CardPageBuildItem card() {
        CardPageBuildItem card = new CardPageBuildItem();
        card.addPage(Page.webComponentPageBuilder()
                .title("Upgrade gate")
                .icon("font-awesome-solid:traffic-light")
                .componentLink("qwc-hco-gate.js")
                .dynamicLabelJsonRPCMethodName("summary"));
        return card;
    }

    @BuildStep(onlyIf = IsDevelopment.class)
    JsonRPCProvidersBuildItem backend() {
        return new JsonRPCProvidersBuildItem(DevConsoleJsonRpcService.class);
    }
}
