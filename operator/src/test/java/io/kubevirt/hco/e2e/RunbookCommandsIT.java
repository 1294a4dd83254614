package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.Repo;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.e2e.BuildOutputs.Result;
import io.kubevirt.hco.simulator.Cluster;
import io.kubevirt.hco.simulator.ComponentCrds;
import io.kubevirt.hco.simulator.ComponentSimulator;

/**
 * The runbooks' commands, run as written: the chart installed as shipped (metrics auth and TLS on)
 * in the namespace the runbooks name, the operator running from the rendered Deployment (leader and
 * a standby), and each runbook's shell block run by bash with the real kubectl against the real API
 * server. The only stand-in is {@code kubectl port-forward}, which needs a kubelet: a wrapper
 * forwards localhost:9000 to the chosen replica's management port and passes every other kubectl
 * command to the real binary.
 */
class RunbookCommandsIT {

    static final String NS = "kubevirt-hyperconverged";
    private static final Pattern SHELL_BLOCK = Pattern.compile("```sh\n(.*?)```", Pattern.DOTALL);

    RealApiServer api;
    final List<AutoCloseable> parts = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (int i = parts.size() - 1; i >= 0; i--) {
            parts.get(i).close();
        }
        if (api != null) {
            api.close();
        }
    }

    @Test
    void everyRunbooksCommandsWorkAsWrittenOnEitherReplica() throws Exception {
        api = new RealApiServer().start();
        KubernetesClient admin = api.admin();
        ComponentCrds.installComponents(admin);
        ClusterSetup.installOlmAndMonitoringCrds(admin);
        ClusterSetup.createNamespace(admin, NS);
        Path kubeconfig = RealOlm.startControllerManager(api);
        List<String> args = new java.util.ArrayList<>(List.of("template", "hco", HelmChartIT.CHART.toString(),
                "--namespace", NS, "--api-versions", "monitoring.coreos.com/v1", "--set", "gate.stabilizationWindow=1s"));
        args.addAll(HelmChartIT.inProcessComponents("1.0.0"));
        Result rendered = BuildOutputs.helm(args.toArray(String[]::new));
        assertThat(rendered.exit()).as(rendered.output()).isZero();
        for (HasMetadata item : admin.load(new ByteArrayInputStream(rendered.output().getBytes(StandardCharsets.UTF_8)))
                .items()) {
            admin.resource(item).createOr(existing -> existing.update());
        }
        Deployment deployment = admin.apps().deployments().inNamespace(NS).withName("hco-operator").get();
        // kube-controller-manager would start the Deployment's pods; no kubelet runs them here
        admin.apps().deployments().inNamespace(NS).withName("hco-operator").scale(0);
        OperatorProcess leader = DeployedOperator.start(api, admin, deployment, NS, Map.of());
        parts.add(leader);
        leader.awaitReady(90);
        OperatorProcess standby = DeployedOperator.startPod(api, admin, "hco-operator-standby",
                deployment.getSpec().getTemplate().getMetadata().getLabels(), deployment.getSpec().getTemplate().getSpec(),
                NS, Map.of());
        parts.add(standby);
        await().atMost(Duration.ofSeconds(90)).until(() -> standby.liveness() == 200);

        Cluster cluster = new Cluster(admin, NS);
        cluster.createHyperConverged(HyperConverged.SINGLETON_NAME);
        ComponentSimulator components = new ComponentSimulator(admin, NS, "1.0.0").watch();
        parts.add(components);
        await().atMost(Duration.ofSeconds(90)).until(() -> {
            var u = cluster.hcoCondition(HyperConverged.SINGLETON_NAME, "Upgradeable");
            return u != null && "True".equals(u.status);
        });

        Path bin = wrapper(kubeconfig);
        List<Path> runbooks;
        try (var files = Files.list(Repo.path("docs/runbooks"))) {
            runbooks = files.filter(f -> f.toString().endsWith(".md")).sorted().toList();
        }
        assertThat(runbooks).hasSizeGreaterThanOrEqualTo(8);
        for (Path runbook : runbooks) {
            Matcher block = SHELL_BLOCK.matcher(Files.readString(runbook));
            assertThat(block.find()).as(runbook + " has its commands in a ```sh block").isTrue();
            OperatorProcess replica = runbook.getFileName().toString().startsWith("HCOUpgradeStuck") ? standby : leader;
            String out = run(block.group(1), bin, kubeconfig, replica.managementPort());
            assertThat(out).as(runbook.getFileName() + " as written, on the " + (replica == leader ? "leader" : "standby"))
                    .contains("kubevirt-hyperconverged", "Upgradeable=True (AsExpected)")
                    .doesNotContain("Unauthorized", "Forbidden", "error:");
            if (replica == standby) {
                assertThat(out).contains("is a standby", "the leader is " + leader.name());
            } else {
                assertThat(out).contains("KubeVirt", "converged");
            }
        }
    }

    /** A kubectl that forwards port-forward to a local process and passes everything else on. */
    private Path wrapper(Path kubeconfig) throws Exception {
        Path bin = Files.createDirectories(api.dir().resolve("runbook-bin"));
        Path forwarder = bin.resolve("forward.py");
        Files.writeString(forwarder, """
                import socket, sys, threading
                listen, target = int(sys.argv[1]), int(sys.argv[2])
                server = socket.socket()
                server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                server.bind(("127.0.0.1", listen))
                server.listen(16)
                def pipe(a, b):
                    try:
                        while True:
                            data = a.recv(65536)
                            if not data:
                                break
                            b.sendall(data)
                    except OSError:
                        pass
                    finally:
                        for s in (a, b):
                            try:
                                s.shutdown(socket.SHUT_RDWR)
                            except OSError:
                                pass
                while True:
                    client, _ = server.accept()
                    upstream = socket.create_connection(("127.0.0.1", target))
                    threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
                    threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()
                """);
        Path kubectl = bin.resolve("kubectl");
        Files.writeString(kubectl, """
                #!/usr/bin/env bash
                # port-forward needs a kubelet, which this test cluster has not: forward locally instead
                for arg in "$@"; do
                  if [ "$arg" = port-forward ]; then
                    ports="${@: -1}"
                    exec python3 "%s" "${ports%%%%:*}" "$FORWARD_TO"
                  fi
                done
                exec "%s" "$@"
                """.formatted(forwarder, E2eBinaries.get().kubectl()));
        kubectl.toFile().setExecutable(true);
        return bin;
    }

    private static String run(String commands, Path bin, Path kubeconfig, int forwardTo) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", commands).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("KUBECONFIG", kubeconfig.toString());
        pb.environment().put("FORWARD_TO", Integer.toString(forwardTo));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
