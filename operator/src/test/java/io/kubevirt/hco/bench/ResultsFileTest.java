package io.kubevirt.hco.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class ResultsFileTest {

    static final String FOUR_COLUMNS = """
            | measure | value (p50 / p99 where two) | ratio to baseline (p50 / p99) | notes |
            |---|---|---|---|
            | baseline: apiserver round trip | 14.97 / 29.59 ms | 1.0 / 1.0 | 200 samples |
            | RSS after churn (JVM) | 280 MB | – | 600 s |
            """;

    @Test
    void aReMeasuredRowKeepsTheFigureItReplacesAndAnUntouchedRowItsDate() {
        String merged = ResultsFile.mergeMarkdown(FOUR_COLUMNS, List.<String[]> of(
                new String[] { "baseline: apiserver round trip", "7.68 / 20.50 ms", "1.0 / 1.0", "200 samples" },
                new String[] { "image size, compressed (native)", "36.37 MB", "–", "target ≤ 40 MB" }), "2026-12-06");
        List<ResultsFile.Row> rows = ResultsFile.parse(merged);
        assertThat(rows).extracting(ResultsFile.Row::measure).containsExactly("baseline: apiserver round trip",
                "RSS after churn (JVM)", "image size, compressed (native)");
        assertThat(rows.get(0)).isEqualTo(new ResultsFile.Row("baseline: apiserver round trip", "7.68 / 20.50 ms",
                "1.0 / 1.0", "14.97 / 29.59 ms", "2026-12-06", "200 samples"));
        assertThat(rows.get(1).value()).isEqualTo("280 MB");
        assertThat(rows.get(1).measured()).isEqualTo("before 2026-12-06");
        assertThat(rows.get(2).previous()).isEqualTo("–");

        // merged again: the six-column format reads back, the previous figure moves on
        String again = ResultsFile.mergeMarkdown(merged, List.<String[]> of(
                new String[] { "baseline: apiserver round trip", "8.00 / 21.00 ms", "1.0 / 1.0", "200 samples" }),
                "2026-12-07");
        assertThat(ResultsFile.parse(again).get(0).previous()).isEqualTo("7.68 / 20.50 ms");
        assertThat(ResultsFile.parse(again).get(2).measured()).isEqualTo("2026-12-06");
    }
}
