package io.locksmith.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Reads {@code 0}, {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d} or ISO-8601 durations. */
final class Durations implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern SHORT = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)?");

    @Override
    public Duration convert(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = SHORT.matcher(t);
        if (m.matches() && (m.group(2) != null || m.group(1).equals("0"))) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2) == null ? "s" : m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return Duration.parse(text.trim());
        } catch (RuntimeException e) {
            throw new CommandLine.TypeConversionException(
                    "'" + text + "' is not a duration such as 0, 500ms, 30s, 5m or PT30S");
        }
    }
}
