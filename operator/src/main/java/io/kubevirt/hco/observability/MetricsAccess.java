package io.kubevirt.hco.observability;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubevirt.hco.config.OperatorSettings;
import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.ext.web.RoutingContext;

/**
 * Access control for metrics and the explain endpoint without a proxy sidecar, the way
 * kube-rbac-proxy does it: the bearer token is authenticated with a TokenReview and authorized with
 * a SubjectAccessReview for {@code get} on the non-resource URL {@code /metrics}. Verdicts are
 * cached briefly per token (hashed). Health paths stay open for the kubelet.
 */
@ApplicationScoped
public class MetricsAccess {

    private static final Logger LOG = Logger.getLogger(MetricsAccess.class);

    @Inject
    KubernetesClient client;

    @Inject
    OperatorSettings settings;

    private final Map<String, Verdict> cache = new ConcurrentHashMap<>();

    record Verdict(int status, String message, Instant until) {
    }

    void register(@Observes ManagementInterface management) {
        if (!settings.metrics().auth()) {
            return;
        }
        LOG.info("metrics and explain endpoints require a bearer token allowed to get /metrics");
        for (String path : new String[] { "/q/metrics", "/q/metrics/*", "/q/hco/*" }) {
            management.router().route(path).order(Integer.MIN_VALUE).blockingHandler(this::authorize, false);
        }
    }

    void authorize(RoutingContext ctx) {
        String header = ctx.request().getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7) || header.length() <= 7) {
            ctx.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer")
                    .end("a bearer token is required\n");
            return;
        }
        String token = header.substring(7).trim();
        Verdict verdict = cache.compute(hash(token), (k, cached) -> cached != null && Instant.now().isBefore(cached.until())
                ? cached : review(token));
        if (verdict.status() == 200) {
            ctx.next();
        } else {
            ctx.response().setStatusCode(verdict.status()).end(verdict.message() + "\n");
        }
    }

    private Verdict review(String token) {
        Instant until = Instant.now().plus(settings.metrics().authCacheTtl());
        try {
            TokenReview review = client.authentication().v1().tokenReviews().create(new TokenReviewBuilder()
                    .withNewSpec().withToken(token).endSpec().build());
            if (review.getStatus() == null || !Boolean.TRUE.equals(review.getStatus().getAuthenticated())) {
                return new Verdict(401, "the token is not valid", until);
            }
            var user = review.getStatus().getUser();
            SubjectAccessReview access = client.authorization().v1().subjectAccessReview()
                    .create(new SubjectAccessReviewBuilder().withNewSpec().withUser(user.getUsername())
                            .withUid(user.getUid()).withGroups(user.getGroups()).withExtra(user.getExtra())
                            .withNewNonResourceAttributes().withPath("/metrics").withVerb("get")
                            .endNonResourceAttributes().endSpec().build());
            if (access.getStatus() == null || !Boolean.TRUE.equals(access.getStatus().getAllowed())) {
                return new Verdict(403, user.getUsername() + " may not get /metrics", until);
            }
            return new Verdict(200, "", until);
        } catch (RuntimeException e) {
            LOG.warnf("token or access review failed: %s", e.getMessage());
            // not cached: the next scrape asks again
            return new Verdict(503, "cannot review the token right now", Instant.now());
        }
    }

    private static String hash(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
