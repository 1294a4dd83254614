package io.kubevirt.hco.e2e;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed serving certificate for 127.0.0.1 and localhost, as PEM files the operator reads
 * and a CA bundle the API server trusts: made with the JDK's keytool (no other tool needed), the
 * key exported from its PKCS12 store.
 */
record WebhookCertificate(Path certificate, Path key, String caBundle) {

    static WebhookCertificate create(Path dir) throws Exception {
        Path store = dir.resolve("webhook.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "webhook", "-keyalg", "RSA", "-keysize", "2048",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
                "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", "changeit").redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + out);
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "changeit".toCharArray());
        }
        Certificate cert = ks.getCertificate("webhook");
        PrivateKey key = (PrivateKey) ks.getKey("webhook", "changeit".toCharArray());
        String certPem = pem("CERTIFICATE", cert.getEncoded());
        Path certFile = Files.writeString(dir.resolve("webhook.crt"), certPem);
        Path keyFile = Files.writeString(dir.resolve("webhook.key"), pem("PRIVATE KEY", key.getEncoded()));
        return new WebhookCertificate(certFile, keyFile,
                Base64.getEncoder().encodeToString(certPem.getBytes(StandardCharsets.US_ASCII)));
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
