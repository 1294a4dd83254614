package io.kubevirt.hco.components;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go durations as the components receive them. The HyperConverged keeps what the user wrote
 * ({@code 48h}); upstream HCO parses it into a {@code metav1.Duration} and writes
 * {@code Duration.String()} ({@code 48h0m0s}) into every component. Writing the canonical form
 * matches that contract, and makes {@code 48h} → {@code 48h0m0s} no change at all: written as is,
 * it would be a spec change that renders the same operands, after which no component writes its
 * status.
 */
public final class GoDuration {

    private static final Pattern PART = Pattern.compile("(\\d*\\.?\\d*)(ns|us|µs|μs|ms|s|m|h)");
    private static final Map<String, Long> NANOS = Map.of("ns", 1L, "us", 1_000L, "µs", 1_000L, "μs", 1_000L,
            "ms", 1_000_000L, "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);

    private GoDuration() {
    }

    /** {@code text} as Go's {@code Duration.String()} writes it; unparsable text is returned as it is (the API server refuses it). */
    public static String canonical(String text) {
        Long nanos = nanos(text);
        return nanos == null ? text : format(nanos);
    }

    static Long nanos(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        String s = text;
        boolean negative = s.startsWith("-");
        if (negative || s.startsWith("+")) {
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return 0L;
        }
        Matcher m = PART.matcher(s);
        BigDecimal total = BigDecimal.ZERO;
        int end = 0;
        while (m.lookingAt()) {
            String number = m.group(1);
            if (number.isEmpty() || number.equals(".")) {
                return null;
            }
            total = total.add(new BigDecimal(number).multiply(BigDecimal.valueOf(NANOS.get(m.group(2)))));
            end = m.end();
            m.region(end, s.length());
        }
        if (end == 0 || end != s.length()) {
            return null;
        }
        long n = total.longValue();
        return negative ? -n : n;
    }

    static String format(long nanos) {
        if (nanos == 0) {
            return "0s";
        }
        String sign = nanos < 0 ? "-" : "";
        long u = Math.abs(nanos);
        if (u < 1_000L) {
            return sign + u + "ns";
        }
        if (u < 1_000_000L) {
            return sign + fraction(u, 1_000L) + "µs";
        }
        if (u < 1_000_000_000L) {
            return sign + fraction(u, 1_000_000L) + "ms";
        }
        long hours = u / 3_600_000_000_000L;
        long minutes = u / 60_000_000_000L % 60;
        String seconds = fraction(u % 60_000_000_000L, 1_000_000_000L) + "s";
        if (hours > 0) {
            return sign + hours + "h" + minutes + "m" + seconds;
        }
        if (minutes > 0) {
            return sign + minutes + "m" + seconds;
        }
        return sign + seconds;
    }

    /** {@code value / unit}, the fraction without trailing zeros (Go's fmtFrac). */
    private static String fraction(long value, long unit) {
        return BigDecimal.valueOf(value).divide(BigDecimal.valueOf(unit)).stripTrailingZeros().toPlainString();
    }

    /** The HyperConverged's certConfig ({@code ca}/{@code server}: {@code duration}, {@code renewBefore}) with every duration canonical. */
    public static Map<String, Object> canonicalCertConfig(Object certConfig) {
        Map<String, Object> out = new java.util.LinkedHashMap<>(SpecJson.toMap(certConfig));
        out.replaceAll((key, rotation) -> rotation instanceof Map<?, ?> r ? canonicalRotation(r) : rotation);
        return out;
    }

    private static Map<String, Object> canonicalRotation(Map<?, ?> rotation) {
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        rotation.forEach((k, v) -> out.put(String.valueOf(k), v instanceof String s ? canonical(s) : v));
        return out;
    }
}
