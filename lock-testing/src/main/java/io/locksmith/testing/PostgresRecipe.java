package io.locksmith.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL from {@code initdb} and {@code postgres} in the newest /usr/lib/postgresql/N/bin (or
 * the PATH). Both refuse to run as root, so when the tests run as root they run as the
 * {@code postgres} user through {@code setpriv}, which execs rather than forks and so keeps the
 * server's pid the one the watchdog signals.
 */
final class PostgresRecipe implements Recipe {

    private static final String SERVICE_USER = "postgres";
    private static final Pattern VERSION = Pattern.compile("\\(PostgreSQL\\)\\s+(\\S+)");

    private final Path bin;
    private String version = "unknown";

    private PostgresRecipe(Path bin) {
        this.bin = bin;
    }

    /** The recipe, if initdb and postgres are installed. */
    static Optional<PostgresRecipe> find() {
        return binDirectory().map(PostgresRecipe::new);
    }

    private static Optional<Path> binDirectory() {
        List<Path> versions = new ArrayList<>();
        Path lib = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(lib)) {
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(lib)) {
                dirs.forEach(d -> versions.add(d.resolve("bin")));
            } catch (IOException e) {
                // fall through to the PATH
            }
        }
        versions.sort(Comparator.comparing(PostgresRecipe::majorVersion).reversed());
        for (Path dir : versions) {
            if (Files.isExecutable(dir.resolve("initdb")) && Files.isExecutable(dir.resolve("postgres"))) {
                return Optional.of(dir);
            }
        }
        return Binaries.find("initdb").map(Path::getParent).filter(dir -> Files.isExecutable(dir.resolve("postgres")));
    }

    private static int majorVersion(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean runningAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** Prefix that drops root for the postgres programs; nothing for an ordinary user. */
    private static List<String> asServiceUser() {
        if (!runningAsRoot()) {
            return List.of();
        }
        return List.of("setpriv", "--reuid=" + SERVICE_USER, "--regid=" + SERVICE_USER, "--init-groups", "--");
    }

    @Override
    public Backend backend() {
        return Backend.POSTGRES;
    }

    @Override
    public void prepare(Path dir, int port) throws IOException {
        Path data = Files.createDirectory(dir.resolve("data"));
        if (runningAsRoot()) {
            UserPrincipal owner =
                    dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(SERVICE_USER);
            Files.setOwner(data, owner);
        }
        List<String> initdb = new ArrayList<>(asServiceUser());
        initdb.addAll(List.of(
                bin.resolve("initdb").toString(),
                "-D",
                data.toString(),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-locale",
                "--no-sync"));
        Binaries.run("initdb", initdb, dir.resolve(Backend.POSTGRES.displayName() + "-initdb.log"));
        String said = new String(
                new ProcessBuilder(bin.resolve("postgres").toString(), "--version")
                        .redirectErrorStream(true)
                        .start()
                        .getInputStream()
                        .readAllBytes(),
                StandardCharsets.UTF_8);
        Matcher m = VERSION.matcher(said);
        version = m.find() ? m.group(1) : "unknown";
    }

    @Override
    public List<String> command(Path dir, int port) {
        Path data = dir.resolve("data");
        List<String> command = new ArrayList<>(asServiceUser());
        command.addAll(List.of(
                bin.resolve("postgres").toString(),
                "-D",
                data.toString(),
                "-p",
                Integer.toString(port),
                "-c",
                "listen_addresses=" + LocalServer.HOST,
                "-c",
                "unix_socket_directories=" + data,
                "-c",
                "max_connections=200",
                // a killed server's data still survives in the page cache; only a host crash loses it
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "full_page_writes=off"));
        return command;
    }

    @Override
    public boolean ready(int port) throws IOException {
        return Probes.postgres(LocalServer.HOST, port, "postgres", "postgres") == 'R';
    }

    @Override
    public String version(int port) {
        return version;
    }

    @Override
    public String uri(int port) {
        return "jdbc:postgresql://" + LocalServer.HOST + ":" + port + "/postgres?user=postgres";
    }
}
