package io.kubevirt.hco.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;

/**
 * The operator image the build made, run as a container: its entrypoint in its own root
 * filesystem (read-only), as its user, with the pod's env and the ServiceAccount's in-cluster files
 * (ContainerRun). The gate scenario passes from there; the image carries what it says; the bundle
 * image points at it by digest.
 */
class ContainerImageIT extends E2eScenario {

    @Test
    void theGateScenarioPassesWithTheOperatorRunFromItsImage() throws Exception {
        OperatorLaunch launch = OperatorLaunch.fromImage();
        olm.installCsv("1.0.0");
        OperatorProcess op = operator("hco-image", "1.0.0", Map.of(), launch);
        op.awaitReady(90);

        // it is the image's entrypoint in the image's root, as the image's user, not a host process
        Path podRoot = api.dir().resolve("hco-image.pod/root").toRealPath();
        assertThat(Files.readSymbolicLink(Path.of("/proc/" + op.pid() + "/root"))).isEqualTo(podRoot);
        assertThat(Files.readSymbolicLink(Path.of("/proc/" + op.pid() + "/cwd")).toString())
                .isEqualTo(podRoot + launch.image().workingDirectory());
        String status = Files.readString(Path.of("/proc/" + op.pid() + "/status"));
        assertThat(status).containsPattern("(?m)^Uid:\\s+1001\\s");
        String cmdline = Files.readString(Path.of("/proc/" + op.pid() + "/cmdline")).replace('\0', ' ').trim();
        assertThat(cmdline).isEqualTo(String.join(" ", launch.image().entrypoint()));
        assertThat(Files.readString(Path.of("/proc/" + op.pid() + "/environ"))).doesNotContain("KUBECONFIG=")
                .contains("KUBERNETES_SERVICE_HOST=");

        createHyperConverged();
        simulator.behave("SSP", Behaviour.SILENT).watch();
        within(60).until(() -> "False/ComponentNotReporting".equals(olm.last("1.0.0")));
        holdsFor(Duration.ofSeconds(10), () -> !olm.upgradeable("1.0.0"), "OLM must not read Upgradeable while SSP is silent");
        simulator.behave("SSP", Behaviour.HEALTHY);
        within(60).until(() -> olm.saw("1.0.0", "True"));
        assertThat(op.log()).doesNotContain("Exception in thread");
    }

    @Test
    void theImagesCarryTheirLabelsAndTheBundlePointsAtTheOperatorImageByDigest() throws Exception {
        ContainerImage operator = ContainerImage.operator();
        assertThat(operator.labels()).containsKeys("org.opencontainers.image.title", "org.opencontainers.image.version",
                "org.opencontainers.image.revision", "org.opencontainers.image.licenses");
        assertThat(operator.labels().get("org.opencontainers.image.revision")).matches("[0-9a-f]{40}");
        assertThat(operator.user()).isEqualTo("1001:0");
        assertThat(operator.ports()).containsExactly(9000);
        Path root = operator.rootfs();
        assertThat(root.resolve("etc/passwd")).content().contains(":1001:");
        assertThat(root.resolve("etc/ssl/certs/ca-certificates.crt")).content().contains("BEGIN CERTIFICATE");
        assertThat(root.resolve("usr/share/zoneinfo/UTC")).exists();

        ContainerImage bundle = ContainerImage.built("bundle").orElseThrow();
        assertThat(bundle.labels()).containsEntry("operators.operatorframework.io.bundle.mediatype.v1", "registry+v1")
                .containsEntry("operators.operatorframework.io.bundle.package.v1", "hco-operator");
        Path csv;
        try (var files = Files.list(bundle.rootfs().resolve("manifests"))) {
            csv = files.filter(f -> f.toString().endsWith(".clusterserviceversion.yaml")).findFirst().orElseThrow();
        }
        JsonNode csvDocument = new ObjectMapper(new YAMLFactory()).readTree(csv.toFile());
        String byDigest = "hco-operator" + (operator.kind().equals("jvm") ? "-jvm" : "") + "@" + operator.digest();
        assertThat(csvDocument.path("metadata").path("annotations").path("containerImage").asText()).isEqualTo(byDigest);
        assertThat(csvDocument.path("spec").path("install").path("spec").path("deployments").path(0).path("spec")
                .path("template").path("spec").path("containers").path(0).path("image").asText()).isEqualTo(byDigest);
        assertThat(ContainerImage.IMAGES.resolve("helm-values.yaml")).content().contains("digest: " + operator.digest());
    }
}
