package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

import java.net.http.HttpClient;

/**
 * An HTTPS client that trusts exactly one serving certificate, whatever host name it is reached
 * by: the operator's certificate names its Service, the tests reach it on 127.0.0.1.
 */
final class PinnedTls {

    private PinnedTls() {
    }

    static HttpClient client(Path certificate) throws IOException {
        try (InputStream in = Files.newInputStream(certificate)) {
            X509Certificate pinned = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, new javax.net.ssl.TrustManager[] { new Pinned(pinned) }, null);
            return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).sslContext(tls).build();
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot trust " + certificate, e);
        }
    }

    /** An HTTPS client that verifies no serving certificate, as the kubelet's HTTPS probes do. */
    static HttpClient unverified() {
        try {
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, new javax.net.ssl.TrustManager[] { new Pinned(null) }, null);
            return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).sslContext(tls).build();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Extended, so that JSSE adds no host name check of its own; no pinned certificate: any chain. */
    private static final class Pinned extends X509ExtendedTrustManager {
        private final X509Certificate pinned;

        Pinned(X509Certificate pinned) {
            this.pinned = pinned;
        }

        private void check(X509Certificate[] chain) throws CertificateException {
            if (pinned != null && (chain == null || chain.length == 0 || !chain[0].equals(pinned))) {
                throw new CertificateException("not the pinned serving certificate");
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            check(chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("client side only");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            throw new CertificateException("client side only");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            throw new CertificateException("client side only");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[] { pinned };
        }
    }
}
