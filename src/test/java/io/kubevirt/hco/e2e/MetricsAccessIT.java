package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;

/**
 * Metrics without a sidecar, with access control, on the real API server: no token 401, a token
 * without the permission 403, Prometheus' ServiceAccount 200 — all while readiness is DOWN.
 */
class MetricsAccessIT extends E2eScenario {

    @Test
    void metricsNeedATokenAllowedToGetMetricsEvenWhileNotReady() throws Exception {
        String prometheus = serviceAccount("prometheus-k8s");
        String nobody = serviceAccount("nobody");
        admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName("hco-metrics-reader")
                .endMetadata().addNewRule().withNonResourceURLs("/metrics").withVerbs("get").endRule().build()).create();
        admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata()
                .withName("prometheus-reads-hco-metrics").endMetadata()
                .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole")
                .withName("hco-metrics-reader").endRoleRef()
                .addNewSubject().withKind("ServiceAccount").withName("prometheus-k8s").withNamespace(NS).endSubject()
                .build()).create();

        Map<String, String> env = new HashMap<>();
        env.put("HCO_METRICS_AUTH", "true");
        env.put("HCO_GATE_MODE", "readiness");
        env.put("OPERATOR_CONDITION_NAME", null);
        OperatorProcess op = operator("hco-v1", "1.0.0", env);
        createHyperConverged();
        simulator.behave("KubeVirt", Behaviour.SILENT).start(200);
        within(60).until(() -> op.get("/q/metrics", prometheus).contains("kubevirt_hco_upgrade_in_progress 1.0"));

        assertThat(op.readiness()).as("readiness DOWN: the install is in progress").isEqualTo(503);
        assertThat(op.get("/q/metrics", null)).startsWith("401");
        assertThat(op.get("/q/metrics", "not-a-token")).startsWith("401");
        assertThat(op.get("/q/metrics", nobody)).startsWith("403").contains("nobody");
        assertThat(op.get("/q/metrics", prometheus)).startsWith("200").contains("kubevirt_hco_upgradeable 0.0");
        assertThat(op.get("/q/hco/gate", null)).startsWith("401");
        assertThat(op.get("/q/hco/gate?format=text", prometheus)).startsWith("200").contains("KubeVirt");
        assertThat(op.get("/q/health/live", null)).startsWith("200");
    }

    private String serviceAccount(String name) {
        admin.serviceAccounts().inNamespace(NS).resource(new ServiceAccountBuilder().withNewMetadata().withName(name)
                .withNamespace(NS).endMetadata().build()).create();
        return ClusterSetup.token(admin, NS, name);
    }
}
