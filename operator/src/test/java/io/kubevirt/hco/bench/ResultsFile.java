package io.kubevirt.hco.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * bench/results.md and results.json, merged with what they held before: a measure taken in this
 * run replaces its row and keeps the figure it replaces beside it ("previous"); a measure this run
 * did not take (a run of some parts only) keeps its row and the date it was measured on. Each row's
 * ratio is to the baseline of the run that measured it.
 */
final class ResultsFile {

    static final String HEADER = "| measure | value (p50 / p99 where two) | ratio to baseline (p50 / p99) | previous value"
            + " | measured | notes |\n|---|---|---|---|---|---|\n";

    private ResultsFile() {
    }

    /** One row: the cells of the six columns. */
    record Row(String measure, String value, String ratio, String previous, String measured, String notes) {
        String markdown() {
            return "| " + String.join(" | ", measure, value, ratio, previous, measured, notes) + " |";
        }
    }

    /**
     * @param rows this run's rows: measure, value, ratio, notes
     * @param today the date this run measured on (yyyy-mm-dd)
     */
    static String mergeMarkdown(String before, List<String[]> rows, String today) {
        Map<String, Row> merged = new LinkedHashMap<>();
        for (Row old : parse(before)) {
            merged.put(old.measure(), old);
        }
        for (String[] r : rows) {
            Row old = merged.get(r[0]);
            merged.put(r[0], new Row(r[0], r[1], r[2], old == null ? "–" : old.value(), today, r[3]));
        }
        StringBuilder md = new StringBuilder(HEADER);
        merged.values().forEach(r -> md.append(r.markdown()).append('\n'));
        return md.toString();
    }

    /** The rows of a results table, of this format or of the four-column one before it (measured: unknown). */
    static List<Row> parse(String markdown) {
        List<Row> rows = new ArrayList<>();
        if (markdown == null) {
            return rows;
        }
        for (String line : markdown.split("\n")) {
            if (!line.startsWith("| ") || line.startsWith("| measure ") || line.startsWith("|---")) {
                continue;
            }
            String[] cells = line.substring(2, line.length() - (line.endsWith(" |") ? 2 : 0)).split(" \\| ", -1);
            if (cells.length == 6) {
                rows.add(new Row(cells[0], cells[1], cells[2], cells[3], cells[4], cells[5]));
            } else if (cells.length == 4) {
                rows.add(new Row(cells[0], cells[1], cells[2], "–", "before 2026-12-06", cells[3]));
            }
        }
        return rows;
    }

    /** The previous results.json's entries, with this run's on top; {@code measured} records each key's date. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> mergeJson(Path file, Map<String, Object> results, String today) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        Map<String, Object> merged = new LinkedHashMap<>();
        if (Files.exists(file)) {
            merged.putAll(mapper.readValue(file.toFile(), new TypeReference<Map<String, Object>>() {
            }));
        }
        Map<String, Object> measured = merged.get("measured") instanceof Map<?, ?> m
                ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
        for (var e : results.entrySet()) {
            merged.put(e.getKey(), e.getValue());
            measured.put(e.getKey(), today);
        }
        merged.put("measured", measured);
        return merged;
    }

    static void write(Path out, Map<String, Object> results, List<String[]> rows, String today) throws IOException {
        Files.createDirectories(out);
        Path json = out.resolve("results.json");
        Path md = out.resolve("results.md");
        Map<String, Object> mergedJson = mergeJson(json, results, today);
        String mergedMd = mergeMarkdown(Files.exists(md) ? Files.readString(md) : null, rows, today);
        Files.writeString(json, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(mergedJson));
        Files.writeString(md, mergedMd);
    }
}
