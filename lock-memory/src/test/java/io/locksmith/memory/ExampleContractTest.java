package io.locksmith.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Runs docs/tck.md's example exactly as the page shows it: the whole kit, against the memory
 * backend by its URI (Surefire runs classes named {@code …Test}, the example is named as the page
 * names it), and checks that the page shows this very class.
 */
class ExampleContractTest extends ExampleContract {

    @Test
    void theKitsDocsShowExactlyThisExample() throws IOException {
        String source = Files.readString(Path.of("src/test/java/io/locksmith/memory/ExampleContract.java"));
        String example = source.substring(source.indexOf("// tck-example:begin"), source.indexOf("// tck-example:end"))
                .lines()
                .skip(1)
                .collect(Collectors.joining("\n"));
        assertThat(Files.readString(Path.of("../docs/tck.md")))
                .as("docs/tck.md shows lock-memory's ExampleContract, which ExampleContractTest runs")
                .contains(example);
    }
}
