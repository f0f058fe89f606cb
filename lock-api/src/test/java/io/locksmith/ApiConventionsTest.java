package io.locksmith;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The conventions in STYLE.md that a reviewer should not have to check by eye. */
class ApiConventionsTest {

    private static final Path MAIN = Path.of("src/main/java");
    private static final java.util.regex.Pattern WRITES_TO_CONSOLE =
            java.util.regex.Pattern.compile("System\\.(out|err)\\.(print|write|format|append)");

    @Test
    void publicApiAndSpiTypesAreFinalInterfacesRecordsEnumsOrSealed() throws Exception {
        List<String> open = new ArrayList<>();
        for (Class<?> type : publicTypes("io/locksmith", "io/locksmith/spi")) {
            int m = type.getModifiers();
            boolean closed = type.isInterface()
                    || type.isEnum()
                    || type.isRecord()
                    || type.isSealed()
                    || Modifier.isFinal(m)
                    || type == io.locksmith.spi.ForwardingLockBackend.class; // made to be extended
            if (!closed) {
                open.add(type.getName());
            }
        }
        assertThat(open).as("public API types that can be subclassed").isEmpty();
    }

    @Test
    void handlesHaveNoPublicConstructors() throws Exception {
        Class<?> impl = Class.forName("io.locksmith.internal.DefaultLockHandle");
        assertThat(Modifier.isPublic(impl.getModifiers())).isFalse();
        assertThat(impl.getConstructors()).isEmpty();
    }

    @Test
    void onlyTheApiAndSpiAreExported() throws IOException {
        String moduleInfo = Files.readString(MAIN.resolve("module-info.java"));
        assertThat(moduleInfo
                        .lines()
                        .filter(l -> l.trim().startsWith("exports"))
                        .map(String::trim))
                .containsExactly("exports io.locksmith;", "exports io.locksmith.spi;");
    }

    @Test
    void noModuleOutsideTheCommandPrintsToTheConsole() throws IOException {
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> modules = Files.list(Path.of(".."))) {
            for (Path module : modules.filter(p -> Files.isDirectory(p.resolve("src/main/java")))
                    .toList()) {
                // programs run from a terminal: the command, the benchmarks, the fault suite
                if (Set.of("lock-cli", "lock-bench", "lock-faults")
                        .contains(module.getFileName().toString())) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(module.resolve("src/main/java"))) {
                    // the commands (lock-cli, the kit's runner) print by design
                    for (Path f : files.filter(p -> p.toString().endsWith(".java")
                                    && !p.toString().contains("/runner/"))
                            .toList()) {
                        String s = Files.readString(f);
                        // writing, not capturing (the kit's credential rule reads what a rule's run printed)
                        if (WRITES_TO_CONSOLE.matcher(s).find() || s.contains(".printStackTrace()")) {
                            offenders.add(f.toString());
                        }
                    }
                }
            }
        }
        assertThat(offenders).as("main sources writing to the console").isEmpty();
    }

    @Test
    void everyPublicTypeHasJavadoc() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Path f : sources("io/locksmith", "io/locksmith/spi")) {
            String s = Files.readString(f);
            int decl = s.indexOf("\npublic ");
            if (decl >= 0 && !s.substring(0, decl).contains("/**")) {
                missing.add(f.toString());
            }
        }
        assertThat(missing).as("public types without Javadoc").isEmpty();
    }

    private static List<Class<?>> publicTypes(String... packages) throws Exception {
        List<Class<?>> types = new ArrayList<>();
        for (Path f : sources(packages)) {
            String name = MAIN.relativize(f).toString().replace('/', '.').replaceAll("\\.java$", "");
            Class<?> c = Class.forName(name);
            if (Modifier.isPublic(c.getModifiers())) {
                types.add(c);
            }
        }
        assertThat(types).as("public types found").hasSizeGreaterThan(10);
        return types;
    }

    private static List<Path> sources(String... packages) throws IOException {
        List<Path> out = new ArrayList<>();
        for (String p : packages) {
            try (Stream<Path> files = Files.list(MAIN.resolve(p))) {
                files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("package-info.java"))
                        .forEach(out::add);
            }
        }
        return out;
    }
}
