package io.kubevirt.hco.webhook;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.kubevirt.hco.api.conversion.HyperConvergedConversion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * {@code POST /convert}: the HyperConverged CRD's conversion webhook (apiextensions.k8s.io/v1
 * ConversionReview), on the operator's HTTPS webhook port (the main HTTP server, TLS only, started
 * when {@code HCO_WEBHOOK_ENABLED=true}). A request that cannot be converted is answered with a
 * Failure result naming why, never with a half-converted list: the API server then fails the
 * user's request with that message instead of storing something wrong.
 */
@ApplicationScoped
public class ConversionWebhook {

    public static final String PATH = "/convert";
    private static final Logger LOG = Logger.getLogger(ConversionWebhook.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The API server sends at most its request size limit (3 MiB by default) of objects. */
    static final long BODY_LIMIT = 16L * 1024 * 1024;

    void register(@Observes Router router) {
        router.post(PATH).handler(BodyHandler.create(false).setBodyLimit(BODY_LIMIT)).handler(ctx -> {
            String answer;
            int status = 200;
            try {
                answer = JSON.writeValueAsString(review(JSON.readTree(ctx.body().buffer().getBytes())));
            } catch (Exception e) {
                status = 400;
                answer = "{\"error\":" + JSON.valueToTree(String.valueOf(e.getMessage())) + "}";
            }
            ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(answer);
        });
    }

    /** The ConversionReview answering {@code request}: every object converted, or a Failure and none. */
    static ObjectNode review(JsonNode request) {
        JsonNode req = request.path("request");
        ObjectNode response = JSON.createObjectNode();
        response.put("uid", req.path("uid").asText(""));
        String desired = req.path("desiredAPIVersion").asText("");
        try {
            List<Object> converted = new ArrayList<>();
            for (JsonNode object : req.path("objects")) {
                @SuppressWarnings("unchecked")
                Map<String, Object> map = JSON.convertValue(object, Map.class);
                converted.add(HyperConvergedConversion.convert(map, desired));
            }
            response.set("convertedObjects", JSON.valueToTree(converted));
            if (LOG.isDebugEnabled()) {
                LOG.debugf("converted to %s: %s -> %s", desired, req.path("objects"), response.get("convertedObjects"));
            }
            response.putObject("result").put("status", "Success");
        } catch (RuntimeException e) {
            LOG.warnf("conversion to %s refused: %s", desired, e.getMessage());
            response.putArray("convertedObjects");
            response.putObject("result").put("status", "Failure").put("message", String.valueOf(e.getMessage()));
        }
        ObjectNode out = JSON.createObjectNode();
        out.put("apiVersion", request.path("apiVersion").asText("apiextensions.k8s.io/v1"));
        out.put("kind", "ConversionReview");
        out.set("response", response);
        return out;
    }
}
