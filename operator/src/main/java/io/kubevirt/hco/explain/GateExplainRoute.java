package io.kubevirt.hco.explain;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.GateExplanation;
import io.kubevirt.hco.gate.GateService;
import io.quarkus.vertx.http.ManagementInterface;

/**
 * {@code GET /q/hco/gate} on the management port (next to health and metrics, so it answers while
 * readiness is DOWN): the current decision and its evidence, as JSON, or as text with
 * {@code ?format=text}. 503 until the first decision has been taken. A standby, which takes no
 * decision, relays the one the leader published and names the leader ({@link PublishedDecision}).
 */
@ApplicationScoped
public class GateExplainRoute {

    public static final String PATH = "/q/hco/gate";

    private final ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .enable(SerializationFeature.INDENT_OUTPUT);

    @Inject
    GateService gate;

    @Inject
    io.kubevirt.hco.lifecycle.ProcessLifecycle lifecycle;

    @Inject
    OperatorSettings settings;

    @Inject
    StandbyRelay relay;

    void register(@Observes ManagementInterface management) {
        management.router().get(PATH).blockingHandler(ctx -> {
            boolean text = "text".equals(ctx.request().getParam("format"));
            if (!lifecycle.leader()) {
                relay(ctx, text);
                return;
            }
            GateExplanation explanation = gate.explain();
            if (explanation == null) {
                ctx.response().setStatusCode(503).putHeader("Content-Type", "text/plain")
                        .end("no gate decision yet: the operator is starting\n");
                return;
            }
            try {
                render(ctx, text, explanation::toText, explanation);
            } catch (Exception e) {
                ctx.response().setStatusCode(500).end("cannot render the explanation: " + e.getMessage() + "\n");
            }
        });
    }

    /** The same answer either way: text for a terminal ({@code ?format=text}), JSON otherwise. */
    private void render(io.vertx.ext.web.RoutingContext ctx, boolean text, java.util.function.Supplier<String> asText,
            Object asJson) throws com.fasterxml.jackson.core.JsonProcessingException {
        if (text) {
            ctx.response().putHeader("Content-Type", "text/plain; charset=utf-8").end(asText.get());
        } else {
            ctx.response().putHeader("Content-Type", "application/json").end(json.writeValueAsString(asJson));
        }
    }

    /** A standby: the leader's published decision, and who the leader is (blocking: two GETs). */
    private void relay(io.vertx.ext.web.RoutingContext ctx, boolean text) {
        try {
            PublishedDecision published = relay.read();
            render(ctx, text, published::toText, published);
        } catch (Exception e) {
            ctx.response().setStatusCode(503).putHeader("Content-Type", "text/plain")
                    .end("this replica is a standby and cannot read the leader's published decision: " + e.getMessage()
                            + "\n");
        }
    }
}
