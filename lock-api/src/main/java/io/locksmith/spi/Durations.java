package io.locksmith.spi;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as they are written in URIs and options ({@code 500ms}, {@code 30s}, {@code PT30S}). */
public final class Durations {

    private static final Pattern SHORT = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)");

    private Durations() {}

    /**
     * Parses a duration such as {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d}, or
     * ISO-8601 {@code PT30S}.
     *
     * @param option the option's name, for the message
     * @param text the text
     * @return the duration
     * @throws IllegalArgumentException naming the option and the value if it is malformed
     */
    public static Duration parse(String option, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = SHORT.matcher(t);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        if (t.startsWith("pt") || t.startsWith("p")) {
            try {
                return Duration.parse(text.trim());
            } catch (DateTimeParseException e) {
                // fall through to the message below
            }
        }
        throw new IllegalArgumentException(
                "option '" + option + "' must be a duration such as 500ms, 30s, 5m" + " or PT30S, was '" + text + "'");
    }

    /**
     * @param d a duration
     * @return a short form such as {@code 30s} or {@code 1m30s}
     */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        if (d.toNanos() % 1_000_000 == 0 && d.toMillis() < 1000) {
            return d.toMillis() + "ms";
        }
        return d.toString().substring(2).toLowerCase(Locale.ROOT);
    }
}
