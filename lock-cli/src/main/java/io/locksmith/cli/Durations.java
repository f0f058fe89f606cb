package io.locksmith.cli;

import java.time.Duration;
import picocli.CommandLine;

/**
 * Reads durations as lock URIs write them ({@link io.locksmith.spi.Durations}: {@code 250ms},
 * {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d}, ISO-8601 {@code PT30S}), and {@code 0}.
 */
final class Durations implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String text) {
        if (text.trim().equals("0")) {
            return Duration.ZERO;
        }
        try {
            return io.locksmith.spi.Durations.parse("duration", text);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(
                    "'" + text + "' is not a duration such as 0, 500ms, 30s, 5m or PT30S");
        }
    }
}
