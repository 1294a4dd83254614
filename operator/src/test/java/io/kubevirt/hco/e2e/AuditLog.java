package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The API server's own record of writes (audit log, Metadata level): who wrote what, when. */
public final class AuditLog {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request as the API server logged it (writes by anyone; reads by service accounts too). */
    public record Write(Instant at, String user, String verb, String resource, String subresource, String name, int code) {
        /** Reviews are "create" requests that change nothing (access checks): not writes to state. */
        public boolean changesState() {
            return resource == null || !resource.endsWith("reviews");
        }

        public String what() {
            return verb + " " + resource + (subresource == null ? "" : "/" + subresource) + " " + name;
        }
    }

    private AuditLog() {
    }

    private static final java.util.Set<String> WRITE_VERBS = java.util.Set.of("create", "update", "patch", "delete");

    /** Every write request, by anyone. */
    public static List<Write> writes(Path file) throws IOException {
        return requests(file).stream().filter(r -> WRITE_VERBS.contains(r.verb())).toList();
    }

    private static List<Write> requests(Path file) throws IOException {
        return Files.exists(file) ? parse(Files.readString(file)) : new ArrayList<>();
    }

    /** Audit events (one JSON object per line) at their ResponseComplete stage, in time order. */
    @SuppressWarnings("unchecked")
    static List<Write> parse(String lines) throws IOException {
        List<Write> out = new ArrayList<>();
        for (String line : lines.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> event = JSON.readValue(line, Map.class);
            if (!"ResponseComplete".equals(event.get("stage"))) {
                continue;
            }
            Map<String, Object> user = (Map<String, Object>) event.get("user");
            Map<String, Object> ref = (Map<String, Object>) event.getOrDefault("objectRef", Map.of());
            Map<String, Object> status = (Map<String, Object>) event.getOrDefault("responseStatus", Map.of());
            out.add(new Write(Instant.parse((String) event.get("requestReceivedTimestamp")),
                    user == null ? null : (String) user.get("username"), (String) event.get("verb"),
                    (String) ref.get("resource"), (String) ref.get("subresource"), (String) ref.get("name"),
                    status.get("code") instanceof Number n ? n.intValue() : 0));
        }
        out.sort(Comparator.comparing(Write::at));
        return out;
    }

    /** Every request (reads too) by ServiceAccount {@code namespace/serviceAccount} from {@code after} on. */
    public static List<Write> requestsBy(Path file, String namespace, String serviceAccount, Instant after)
            throws IOException {
        String user = "system:serviceaccount:" + namespace + ":" + serviceAccount;
        return requests(file).stream().filter(w -> user.equals(w.user()) && !w.at().isBefore(after)).toList();
    }

    public static List<Write> by(Path file, String serviceAccount, Instant after) throws IOException {
        String user = "system:serviceaccount:" + E2eScenario.NS + ":" + serviceAccount;
        return writes(file).stream().filter(w -> user.equals(w.user()) && !w.at().isBefore(after))
                .filter(Write::changesState).toList();
    }
}
