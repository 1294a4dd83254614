package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A cluster for the real component operators: the real API server (Services reached through their
 * endpoints), kube-controller-manager with the controllers the operators' objects need
 * (Deployments, DaemonSets, Jobs, EndpointSlices, garbage collection), KWOK playing one node and the
 * lifecycle of every operand pod on it (its own default stages plus the project's, see
 * {@link #UNREADY}), and the pod runner running the operators' pods on this host.
 */
final class KwokCluster {

    static final String KWOK_NODE = "kwok-node-0";
    /** A pod annotated so is made not ready by KWOK (the project's stage), and ready again without it. */
    static final String UNREADY = "hco.kubevirt.io/e2e-unready";

    private KwokCluster() {
    }

    static ClusterWithKubelet start(String namespace) throws IOException, InterruptedException {
        RealApiServer api = new RealApiServer().start();
        try {
            Path kubeconfig = addTo(api);
            ClusterSetup.createNamespace(api.admin(), namespace);
            PodRunner kubelet = new PodRunner(api, namespace).withRealComponents(KWOK_NODE).start();
            return new ClusterWithKubelet(api, kubeconfig, kubelet);
        } catch (IOException | RuntimeException e) {
            api.close();
            throw e;
        }
    }

    /**
     * Makes {@code api} a cluster the real operators can run in: the controller manager with the
     * controllers their objects need, KWOK and its node, cert-manager's CRDs. Returns the admin
     * kubeconfig. The pods of the operators themselves need a {@link PodRunner#withRealComponents}.
     */
    static Path addTo(RealApiServer api) throws IOException {
        Path kubeconfig = RealOlm.startControllerManager(api,
                ",daemonset-controller,job-controller,serviceaccount-controller");
        E2eBinaries.RealComponents real = E2eBinaries.get().realComponents();
        api.launch("kwok", List.of(real.kwok().toString(), "--kubeconfig=" + kubeconfig,
                "--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",
                "--server-address=127.0.0.1:" + RealApiServer.freePort(), "--cidr=10.244.0.0/16",
                "--config=" + stages(api.dir(), real.kwokStages())));
        api.admin().nodes().resource(new NodeBuilder().withNewMetadata().withName(KWOK_NODE)
                .withAnnotations(Map.of("kwok.x-k8s.io/node", "fake"))
                .withLabels(Map.of("type", "kwok", "kubernetes.io/os", "linux", "kubernetes.io/hostname", KWOK_NODE))
                .endMetadata().build()).create();
        untaintWhenReady(api.admin());
        installCertManagerCrds(api.admin(), real.certManagerCrds());
        return kubeconfig;
    }

    /**
     * The HyperConverged the real operators get here: KubeVirt's common instancetypes off, because
     * virt-api, whose admission webhook judges them, is a KWOK pod with no pod network behind it
     * (docs/testing.md, "Real component operators").
     */
    static void createHyperConverged(KubernetesClient admin, String namespace) {
        admin.genericKubernetesResources("hco.kubevirt.io/v1beta1", "HyperConverged").inNamespace(namespace)
                .resource(admin.getKubernetesSerialization().unmarshal("""
                        apiVersion: hco.kubevirt.io/v1beta1
                        kind: HyperConverged
                        metadata:
                          name: %s
                        spec:
                          CommonInstancetypesDeployment:
                            enabled: false
                        """.formatted(io.kubevirt.hco.api.v1beta1.HyperConverged.SINGLETON_NAME),
                        io.fabric8.kubernetes.api.model.GenericKubernetesResource.class)).create();
    }

    /**
     * The API server taints a new node not-ready (NoSchedule) and the node lifecycle controller lifts
     * it once the node reports Ready; that controller does not run here (it would also evict the pod
     * runner's pods, whose node sends no lease heartbeats), so this does its part for KWOK's node.
     */
    private static void untaintWhenReady(KubernetesClient admin) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofMinutes(1)).until(() -> {
            var node = admin.nodes().withName(KWOK_NODE).get();
            return node.getStatus() != null && node.getStatus().getConditions() != null && node.getStatus()
                    .getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        });
        admin.nodes().withName(KWOK_NODE).edit(n -> {
            if (n.getSpec().getTaints() != null) {
                n.getSpec().getTaints().removeIf(t -> "node.kubernetes.io/not-ready".equals(t.getKey()));
            }
            return n;
        });
    }

    /**
     * cert-manager's Certificate and Issuer CRDs as cert-manager ships them (a prerequisite of the
     * network add-ons on Kubernetes); their labels are Helm template text in that file, dropped here.
     */
    private static void installCertManagerCrds(KubernetesClient admin, Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                var crd = admin.getKubernetesSerialization().unmarshal(Files.readString(f),
                        io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition.class);
                crd.getMetadata().setLabels(null);
                crd.getMetadata().setAnnotations(null);
                admin.apiextensions().v1().customResourceDefinitions().resource(crd).create();
            }
        }
    }

    /**
     * KWOK's own stages from its module, and ours: a pod annotated {@link #UNREADY} turns not ready,
     * and ready again once the annotation is gone (as a failing and recovering readiness probe would).
     */
    private static Path stages(Path dir, Path kwokStages) throws IOException {
        List<String> docs = new ArrayList<>();
        try (Stream<Path> files = Files.list(kwokStages)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                docs.add(Files.readString(f));
            }
        }
        docs.add(readiness("pod-unready", "Exists", "True", "False"));
        docs.add(readiness("pod-ready-again", "DoesNotExist", "False", "True"));
        Path config = dir.resolve("kwok-stages.yaml");
        Files.writeString(config, String.join("\n---\n", docs));
        return config;
    }

    private static String readiness(String name, String annotation, String from, String to) {
        return """
                apiVersion: kwok.x-k8s.io/v1alpha1
                kind: Stage
                metadata:
                  name: %s
                spec:
                  resourceRef:
                    apiGroup: v1
                    kind: Pod
                  selector:
                    matchExpressions:
                    - key: '.metadata.deletionTimestamp'
                      operator: 'DoesNotExist'
                    - key: '.status.phase'
                      operator: 'In'
                      values: ['Running']
                    - key: '.metadata.annotations["%s"]'
                      operator: '%s'
                    - key: '.status.conditions.[] | select( .type == "Ready" ) | .status'
                      operator: 'In'
                      values: ['%s']
                  next:
                    statusTemplate: |
                      {{ $now := Now }}
                      conditions:
                      - lastTransitionTime: {{ $now | Quote }}
                        status: "True"
                        type: Initialized
                      - lastTransitionTime: {{ $now | Quote }}
                        status: "%s"
                        type: Ready
                      - lastTransitionTime: {{ $now | Quote }}
                        status: "%s"
                        type: ContainersReady
                      containerStatuses:
                      {{ range .spec.containers }}
                      - image: {{ .image | Quote }}
                        name: {{ .name | Quote }}
                        ready: %s
                        restartCount: 0
                        state:
                          running:
                            startedAt: {{ $now | Quote }}
                      {{ end }}
                """.formatted(name, UNREADY, annotation, from, to, to, "True".equals(to));
    }
}
