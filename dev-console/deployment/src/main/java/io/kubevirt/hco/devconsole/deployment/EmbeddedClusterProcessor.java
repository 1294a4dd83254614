package io.kubevirt.hco.devconsole.deployment;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.quarkus.deployment.IsDevelopment;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CuratedApplicationShutdownBuildItem;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem.RunningDevService;

/**
 * A dev service: in {@code quarkus:dev} with no cluster configured, a Kubernetes API in this JVM
 * (fabric8's API server in CRUD mode, on loopback) that the operator is pointed at. It is started
 * once and kept across live reloads, so the stack's state survives a code change.
 */
class EmbeddedClusterProcessor {

    private static final Logger LOG = Logger.getLogger(EmbeddedClusterProcessor.class);
    static final String ENABLED = "hco.dev.embedded-cluster";
    static final String API_SERVER_URL = "quarkus.kubernetes-client.api-server-url";

    private static volatile RunningDevService running;

    @BuildStep(onlyIf = IsDevelopment.class)
    DevServicesResultBuildItem embeddedCluster(CuratedApplicationShutdownBuildItem shutdown) {
        Config config = ConfigProvider.getConfig();
        if (!config.getOptionalValue(ENABLED, Boolean.class).orElse(true)) {
            LOG.infof("Embedded cluster off (%s=false): the operator uses your kubeconfig or %s", ENABLED,
                    API_SERVER_URL);
            return null;
        }
        if (config.getOptionalValue(API_SERVER_URL, String.class).isPresent()) {
            LOG.infof("Embedded cluster not started: %s is set", API_SERVER_URL);
            return null;
        }
        if (running == null) {
            running = start();
            shutdown.addCloseTask(EmbeddedClusterProcessor::stop, true);
        }
        return running.toBuildItem();
    }

    private static RunningDevService start() {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        String url = server.url("/");
        LOG.infof("Embedded Kubernetes API for dev mode at %s (simulated component operators: see the Dev UI card"
                + " 'Upgrade gate')", url);
        Map<String, String> config = Map.of(
                API_SERVER_URL, url,
                "quarkus.kubernetes-client.trust-certs", "true",
                "hco.dev.simulator", "true");
        return new RunningDevService(DevConsoleProcessor.FEATURE, null, server::destroy, config);
    }

    private static void stop() {
        RunningDevService service = running;
        running = null;
        if (service != null) {
            try {
                service.close();
            } catch (Exception e) {
                LOG.debug("embedded cluster stop", e);
            }
        }
    }
}
