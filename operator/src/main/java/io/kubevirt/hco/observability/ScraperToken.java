package io.kubevirt.hco.observability;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.support.DaemonTimer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Keeps the long-lived token Secret of the metrics scraper ServiceAccount, which the shipped
 * ServiceMonitor names as its credentials: Prometheus then scrapes with a token that may get
 * /metrics, whatever ServiceAccount Prometheus itself runs as. The operator creates it (not the
 * chart or the bundle) because the token controller deletes a token Secret whose ServiceAccount
 * does not exist yet, and OLM creates the ServiceAccount only when it installs the CSV: here it
 * is created once the ServiceAccount exists, and again should someone delete it.
 */
@ApplicationScoped
public class ScraperToken {

    private static final Logger LOG = Logger.getLogger(ScraperToken.class);
    static final long CHECK_EVERY_SECONDS = 30;

    @Inject
    KubernetesClient client;

    @Inject
    OperatorSettings settings;

    private ScheduledExecutorService checks;
    private String lastProblem;

    void onStart(@Observes StartupEvent event) {
        if (!settings.metrics().auth() || settings.metrics().scraperServiceAccount().isBlank()) {
            return;
        }
        checks = DaemonTimer.named("hco-scraper-token");
        checks.scheduleWithFixedDelay(this::ensure, 0, CHECK_EVERY_SECONDS, TimeUnit.SECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        if (checks != null) {
            checks.shutdownNow();
        }
    }

    public static String secretName(String serviceAccount) {
        return serviceAccount + "-token";
    }

    void ensure() {
        String namespace = settings.namespace();
        String account = settings.metrics().scraperServiceAccount();
        String name = secretName(account);
        try {
            if (client.secrets().inNamespace(namespace).withName(name).get() != null) {
                lastProblem = null;
                return;
            }
            if (client.serviceAccounts().inNamespace(namespace).withName(account).get() == null) {
                say("ServiceAccount " + account + " does not exist (yet): no scraper token; Prometheus cannot "
                        + "scrape with the shipped ServiceMonitor until it does");
                return;
            }
            client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName(name)
                    .addToAnnotations("kubernetes.io/service-account.name", account)
                    .addToLabels("app.kubernetes.io/name", "hco-operator").endMetadata()
                    .withType("kubernetes.io/service-account-token").build()).create();
            LOG.infof("created the token Secret %s of the metrics scraper %s", name, account);
            lastProblem = null;
        } catch (KubernetesClientException e) {
            // a replica that lost a race to create it sees 409; anything else is said once, retried
            if (e.getCode() != 409) {
                say("cannot keep the scraper token Secret " + name + ": " + e.getMessage());
            }
        }
    }

    private void say(String problem) {
        if (!problem.equals(lastProblem)) {
            LOG.warn(problem);
            lastProblem = problem;
        }
    }
}
