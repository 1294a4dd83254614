package io.kubevirt.hco.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import io.fabric8.kubernetes.client.internal.CertUtils;

/**
 * The admission webhook a component operator serves itself, as ssp-operator does: HTTPS on its
 * webhook port with the certificate where the real operator looks for it (the directory OLM mounts,
 * /apiserver.local.config/certificates/apiserver.{crt,key}, or the operator SDK's
 * /tmp/k8s-webhook-server/serving-certs/tls.{crt,key}), admitting every review: the simulator does
 * not reproduce SSP's validation, only that the API server must reach a served webhook to write an
 * SSP at all. Where the pod runner runs the process, mount paths are host directories, given in
 * {@code SIMULATED_MOUNTS} (mountPath=directory;...). Without a certificate it serves nothing (the
 * real ssp-operator exits; the simulator also runs outside pods, in the demo and the fast tests).
 */
final class SimulatedWebhook {

    static final int PORT = 9443;
    private static final String OLM_DIR = "/apiserver.local.config/certificates";
    private static final String SDK_DIR = "/tmp/k8s-webhook-server/serving-certs";
    private static final ObjectMapper JSON = new ObjectMapper();

    private SimulatedWebhook() {
    }

    /** Serves the webhook in the background when a certificate is mounted; retries the port while a previous replica holds it. */
    static void serveIfCertified(String image, Map<String, String> env) {
        Optional<Path[]> files = certificate(mounts(env.getOrDefault("SIMULATED_MOUNTS", "")));
        if (files.isEmpty()) {
            System.out.printf("[%s] no webhook certificate mounted: webhook not served%n", image);
            return;
        }
        Thread t = new Thread(() -> serve(image, files.get()), "webhook");
        t.setDaemon(true);
        t.start();
    }

    private static void serve(String image, Path[] files) {
        while (true) {
            try {
                HttpsServer server = HttpsServer.create(new InetSocketAddress(PORT), 0);
                server.setHttpsConfigurator(new HttpsConfigurator(ssl(files[0], files[1])));
                server.createContext("/", exchange -> {
                    byte[] body;
                    try (InputStream in = exchange.getRequestBody()) {
                        body = admit(in.readAllBytes());
                    }
                    exchange.getResponseHeaders().set("Content-Type", "application/json");
                    exchange.sendResponseHeaders(200, body.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(body);
                    }
                });
                server.start();
                System.out.printf("[%s] webhook served on :%d%n", image, PORT);
                return;
            } catch (BindException e) {
                // a replica being replaced still holds the port (one host here, one per pod in a cluster)
                sleep();
            } catch (Exception e) {
                System.err.printf("[%s] webhook not served: %s%n", image, e);
                return;
            }
        }
    }

    /** An AdmissionReview answered: allowed, with the request's uid. */
    static byte[] admit(byte[] review) throws IOException {
        ObjectNode request = (ObjectNode) JSON.readTree(review).path("request");
        ObjectNode answer = JSON.createObjectNode();
        answer.put("apiVersion", "admission.k8s.io/v1");
        answer.put("kind", "AdmissionReview");
        answer.putObject("response").put("uid", request.path("uid").asText()).put("allowed", true);
        return JSON.writeValueAsString(answer).getBytes(StandardCharsets.UTF_8);
    }

    /** Where ssp-operator reads its certificate: OLM's directory when only that exists, else the SDK's. */
    static Optional<Path[]> certificate(Map<String, Path> mounts) {
        Path olm = mounts.get(OLM_DIR);
        Path sdk = mounts.get(SDK_DIR);
        if (sdk == null && olm != null && Files.exists(olm.resolve("apiserver.crt"))) {
            return Optional.of(new Path[] { olm.resolve("apiserver.crt"), olm.resolve("apiserver.key") });
        }
        if (sdk != null && Files.exists(sdk.resolve("tls.crt"))) {
            return Optional.of(new Path[] { sdk.resolve("tls.crt"), sdk.resolve("tls.key") });
        }
        return Optional.empty();
    }

    static Map<String, Path> mounts(String value) {
        Map<String, Path> mounts = new HashMap<>();
        for (String entry : value.split(";")) {
            int eq = entry.indexOf('=');
            if (eq > 0) {
                mounts.put(entry.substring(0, eq), Path.of(entry.substring(eq + 1)));
            }
        }
        return mounts;
    }

    private static SSLContext ssl(Path cert, Path key) throws Exception {
        char[] password = "simulated".toCharArray();
        // OLM makes ECDSA keys (SEC1 PEM), Helm's genSignedCert RSA ones (PKCS#1)
        String algorithm = Files.readString(key).contains("EC PRIVATE KEY") ? "EC" : "RSA";
        KeyStore store = CertUtils.createKeyStore(Files.newInputStream(cert), Files.newInputStream(key), algorithm,
                password, null, password);
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, password);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), null, null);
        return ssl;
    }

    private static void sleep() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
