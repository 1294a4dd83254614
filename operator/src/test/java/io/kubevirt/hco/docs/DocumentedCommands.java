package io.kubevirt.hco.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.kubevirt.hco.Repo;

/**
 * The commands the README and docs/ show a reader, as they would type them: the lines of code
 * blocks (fenced, or indented by four spaces) that start with a command, with continuation lines
 * joined and trailing comments dropped. The runbooks' {@code sh} blocks are RunbookCommandsIT's.
 */
public final class DocumentedCommands {

    static final Pattern COMMAND = Pattern.compile(
            "^(mvn|helm|kubectl|curl|operator-sdk|docker|git|bash|java|bin/|packaging/|KUBECONFIG=)\\S*(\\s.*)?$");

    /**
     * Which documents hold which commands, in order. Commands run as one script (the README's Helm
     * install) stay together.
     */
    public static Map<String, List<String>> all() throws IOException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        List<Path> docs = new ArrayList<>(List.of(Repo.path("README.md"), Repo.path("packaging/native/README.md")));
        try (Stream<Path> files = Files.list(Repo.path("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        for (Path doc : docs) {
            List<String> commands = of(Files.readString(doc));
            if (!commands.isEmpty()) {
                out.put(Repo.ROOT.relativize(doc).toString(), commands);
            }
        }
        return out;
    }

    /** The commands in one Markdown text. */
    public static List<String> of(String markdown) {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        boolean previousBlank = true;
        boolean indentedBlock = false;
        StringBuilder pending = null;
        for (String line : markdown.split("\n", -1)) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            boolean indented = !fenced && line.startsWith("    ") && (previousBlank || indentedBlock);
            indentedBlock = indented || (indentedBlock && line.isBlank());
            previousBlank = line.isBlank();
            if (!fenced && !indented) {
                continue;
            }
            String text = line.strip();
            if (pending != null) {
                pending.append(' ').append(text.endsWith("\\") ? text.substring(0, text.length() - 1).strip() : text);
                if (!text.endsWith("\\")) {
                    out.add(withoutComment(pending.toString()));
                    pending = null;
                }
                continue;
            }
            if (!COMMAND.matcher(text).matches()) {
                continue;
            }
            if (text.endsWith("\\")) {
                pending = new StringBuilder(text.substring(0, text.length() - 1).strip());
            } else {
                out.add(withoutComment(text));
            }
        }
        return out;
    }

    /** The command without a trailing {@code # comment} (a '#' preceded by two spaces, as the docs write them). */
    static String withoutComment(String command) {
        int hash = command.indexOf("  #");
        return (hash < 0 ? command : command.substring(0, hash)).strip().replaceAll("\\s+", " ");
    }

    private DocumentedCommands() {
    }
}
