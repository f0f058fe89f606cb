package io.locksmith.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MariaDB from {@code mariadb-install-db} and {@code mariadbd} (or their older MySQL-era names).
 * Root logs in over TCP with an empty password; an init file creates the {@code test} database
 * on every start, which is idempotent.
 */
final class MariaDbRecipe implements Recipe {

    // the greeting says "5.5.5-10.11.6-MariaDB-..." for old clients' sake; keep the real version
    private static final Pattern VERSION = Pattern.compile("(\\d+\\.\\d+\\.\\d+)-MariaDB");

    private final Path installDb;
    private final Path server;

    private MariaDbRecipe(Path installDb, Path server) {
        this.installDb = installDb;
        this.server = server;
    }

    /** The recipe, if both programs are installed. */
    static Optional<MariaDbRecipe> find() {
        Optional<Path> installDb = Binaries.findAny("mariadb-install-db", "mysql_install_db");
        Optional<Path> server = Binaries.findAny("mariadbd", "mysqld");
        return installDb.isPresent() && server.isPresent()
                ? Optional.of(new MariaDbRecipe(installDb.get(), server.get()))
                : Optional.empty();
    }

    private static List<String> userOption() {
        // mariadbd refuses to run as root unless told to; as anyone else it runs as that user
        return "root".equals(System.getProperty("user.name")) ? List.of("--user=root") : List.of();
    }

    @Override
    public Backend backend() {
        return Backend.MARIADB;
    }

    @Override
    public void prepare(Path dir, int port) throws IOException {
        List<String> install = new ArrayList<>(List.of(
                installDb.toString(),
                "--no-defaults",
                "--datadir=" + dir.resolve("data"),
                "--auth-root-authentication-method=normal",
                "--skip-test-db",
                "--skip-name-resolve"));
        install.addAll(userOption());
        Binaries.run("mariadb-install-db", install, dir.resolve("mariadb-install-db.log"));
        Files.writeString(dir.resolve("init.sql"), "CREATE DATABASE IF NOT EXISTS test;\n", StandardCharsets.UTF_8);
    }

    @Override
    public List<String> command(Path dir, int port) {
        List<String> command = new ArrayList<>(List.of(
                server.toString(),
                "--no-defaults",
                "--datadir=" + dir.resolve("data"),
                "--port=" + port,
                "--bind-address=" + LocalServer.HOST,
                "--socket=" + dir.resolve("mysqld.sock"),
                "--pid-file=" + dir.resolve("mysqld.pid"),
                "--init-file=" + dir.resolve("init.sql"),
                "--skip-log-bin",
                "--skip-name-resolve",
                "--max-connections=200",
                "--innodb-buffer-pool-size=64M",
                // like PostgreSQL's fsync=off: survives a killed server, not a host crash
                "--innodb-flush-log-at-trx-commit=2"));
        command.addAll(userOption());
        return command;
    }

    @Override
    public boolean ready(int port) throws IOException {
        return !Probes.mysqlGreeting(LocalServer.HOST, port).isEmpty();
    }

    @Override
    public String version(int port) throws IOException {
        String greeting = Probes.mysqlGreeting(LocalServer.HOST, port);
        Matcher m = VERSION.matcher(greeting);
        return m.find() ? m.group(1) : greeting;
    }

    @Override
    public String uri(int port) {
        return "jdbc:mariadb://" + LocalServer.HOST + ":" + port + "/test?user=root";
    }
}
