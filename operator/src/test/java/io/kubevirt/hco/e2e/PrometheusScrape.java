package io.kubevirt.hco.e2e;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * One scrape as Prometheus makes it from a ServiceMonitor or PodMonitor endpoint, as
 * prometheus-operator configures it: the path and scheme of the endpoint, the CA from the Secret
 * its tlsConfig names, the server name it verifies the certificate against, and the bearer token
 * from the Secret its authorization names (prometheus-operator reads both Secrets in the monitor's
 * namespace). Only the address differs: the pod's management port is the process's port here.
 */
final class PrometheusScrape {

    private PrometheusScrape() {
    }

    /**
     * Whether a scrape as the monitor describes it gets the gate's metrics (they appear with the
     * operator's first decision, which may come after readiness).
     */
    static boolean getsTheGateMetrics(KubernetesClient admin, GenericKubernetesResource monitor, int port)
            throws Exception {
        String scraped = scrape(admin, monitor, port);
        return scraped.startsWith("200") && scraped.contains("kubevirt_hco_upgradeable");
    }

    /** The answer as "status body". */
    @SuppressWarnings("unchecked")
    static String scrape(KubernetesClient admin, GenericKubernetesResource monitor, int port) throws Exception {
        String field = "ServiceMonitor".equals(monitor.getKind()) ? "endpoints" : "podMetricsEndpoints";
        Map<String, Object> spec = (Map<String, Object>) monitor.getAdditionalProperties().get("spec");
        Map<String, Object> endpoint = ((List<Map<String, Object>>) spec.get(field)).get(0);
        String namespace = monitor.getMetadata().getNamespace();
        String path = (String) endpoint.getOrDefault("path", "/metrics");
        String token = null;
        Map<String, Object> authorization = (Map<String, Object>) endpoint.get("authorization");
        if (authorization != null) {
            token = new String(secret(admin, namespace, (Map<String, Object>) authorization.get("credentials")),
                    StandardCharsets.UTF_8).trim();
        }
        String request = "GET " + path + " HTTP/1.1\r\nHost: scrape\r\nConnection: close\r\n"
                + (token == null ? "" : "Authorization: Bearer " + token + "\r\n") + "\r\n";
        if (!"https".equals(endpoint.get("scheme"))) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                return exchange(socket, request);
            }
        }
        Map<String, Object> tls = (Map<String, Object>) endpoint.get("tlsConfig");
        byte[] ca = secret(admin, namespace, (Map<String, Object>) ((Map<String, Object>) tls.get("ca")).get("secret"));
        String serverName = (String) tls.get("serverName");
        try (Socket plain = new Socket("127.0.0.1", port);
                SSLSocket socket = (SSLSocket) trusting(ca).getSocketFactory().createSocket(plain, serverName, port,
                        true)) {
            // the certificate must name serverName, as Prometheus checks it
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(parameters);
            return exchange(socket, request);
        }
    }

    static byte[] secret(KubernetesClient admin, String namespace, Map<String, Object> selector) {
        var secret = admin.secrets().inNamespace(namespace).withName((String) selector.get("name")).get();
        if (secret == null || secret.getData() == null || secret.getData().get(selector.get("key")) == null) {
            throw new IllegalStateException("Secret " + namespace + "/" + selector.get("name") + " has no key "
                    + selector.get("key") + " (yet)");
        }
        return Base64.getDecoder().decode(secret.getData().get(selector.get("key")));
    }

    private static SSLContext trusting(byte[] caPem) throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        int i = 0;
        for (var cert : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(caPem))) {
            store.setCertificateEntry("ca" + i++, cert);
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    private static String exchange(Socket socket, String request) throws IOException {
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        // "HTTP/1.1 200 OK\r\n...\r\n\r\nbody" -> "200 body"
        int body = response.indexOf("\r\n\r\n");
        String status = response.length() > 12 ? response.substring(9, 12) : "-1";
        return status + " " + (body < 0 ? "" : response.substring(body + 4));
    }
}
