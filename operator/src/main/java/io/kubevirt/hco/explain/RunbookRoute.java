package io.kubevirt.hco.explain;

import java.io.IOException;
import java.io.InputStream;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.vertx.http.ManagementInterface;

/**
 * {@code GET /q/hco/runbooks/<alert>} on the management port: the runbook of each alert, as shipped
 * with this very version (docs/runbooks, packaged into the jar). The alerts' default runbook URLs
 * point here, so they are absolute, resolvable in the cluster, and never describe another release.
 * Behind the same token check as the metrics.
 */
@ApplicationScoped
public class RunbookRoute {

    public static final String PATH = "/q/hco/runbooks/";
    private static final Pattern ALERT = Pattern.compile("[A-Za-z]{1,80}");

    void register(@Observes ManagementInterface management) {
        management.router().get(PATH + ":alert").handler(ctx -> {
            String alert = ctx.pathParam("alert");
            String runbook = ALERT.matcher(alert).matches() ? read(alert) : null;
            if (runbook == null) {
                ctx.response().setStatusCode(404).putHeader("Content-Type", "text/plain")
                        .end("no runbook for alert '" + alert + "'\n");
                return;
            }
            ctx.response().putHeader("Content-Type", "text/markdown; charset=utf-8").end(runbook);
        });
    }

    static String read(String alert) {
        try (InputStream in = RunbookRoute.class.getClassLoader().getResourceAsStream("runbooks/" + alert + ".md")) {
            return in == null ? null : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }
}
