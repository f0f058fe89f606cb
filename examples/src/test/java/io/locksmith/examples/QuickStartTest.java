package io.locksmith.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class QuickStartTest {

    @Test
    void runsAgainstTheMemoryBackend() {
        List<Long> tokens = new ArrayList<>();
        QuickStart.chargeOnce(
                "memory:",
                new QuickStart.Payments() {
                    @Override
                    public void chargeIfNotCharged(String orderId, long fencingToken) {
                        tokens.add(fencingToken);
                    }

                    @Override
                    public void abort(String orderId) {
                        throw new AssertionError("the lock was not lost");
                    }
                },
                "12345");
        assertThat(tokens).hasSize(1);
        assertThat(tokens.get(0)).isPositive();
    }

    @Test
    void theReadmeShowsExactlyThisCode() throws IOException {
        String source = Files.readString(Path.of("src/main/java/io/locksmith/examples/QuickStart.java"));
        String snippet = source.substring(source.indexOf("// quick-start:begin"), source.indexOf("// quick-start:end"))
                .lines()
                .skip(1)
                .map(l -> l.length() >= 8 ? l.substring(8) : l.strip())
                .collect(Collectors.joining("\n"));
        String readme = Files.readString(Path.of("../README.md"));
        assertThat(readme).as("README.md's quick start matches QuickStart.java").contains(snippet);
    }
}
