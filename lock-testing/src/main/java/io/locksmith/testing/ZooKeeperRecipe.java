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
 * One ZooKeeper server from the Debian package's jar, run on this JVM's own java: standalone,
 * or one member of an ensemble.
 */
final class ZooKeeperRecipe implements Recipe {

    static final Path JAR = Path.of("/usr/share/java/zookeeper.jar");
    private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+\\.\\d+");
    private static final Path SLF4J_SIMPLE = Path.of("/usr/share/java/slf4j-simple.jar");

    private final int myId;
    private final List<String> serverLines;

    /**
     * @param myId this member's id, from 1
     * @param serverLines the ensemble's {@code server.N=host:peer:election} lines, empty for a
     *     standalone server
     */
    ZooKeeperRecipe(int myId, List<String> serverLines) {
        this.myId = myId;
        this.serverLines = List.copyOf(serverLines);
    }

    static Optional<String> missing() {
        return Files.isRegularFile(JAR) ? Optional.empty() : Optional.of(JAR + " does not exist");
    }

    @Override
    public Backend backend() {
        return Backend.ZOOKEEPER;
    }

    @Override
    public void prepare(Path dir, int port) throws IOException {
        Path data = Files.createDirectories(dir.resolve("data"));
        List<String> conf = new ArrayList<>(List.of(
                // short ticks make elections quick; maxSessionTimeout still allows long sessions
                "tickTime=500",
                "initLimit=20",
                "syncLimit=10",
                "maxSessionTimeout=60000",
                "dataDir=" + data,
                "clientPort=" + port,
                "clientPortAddress=" + LocalServer.HOST,
                "admin.enableServer=false",
                "4lw.commands.whitelist=srvr,ruok,mntr"));
        conf.addAll(serverLines);
        Files.write(dir.resolve("zoo.cfg"), conf, StandardCharsets.UTF_8);
        if (!serverLines.isEmpty()) {
            Files.writeString(data.resolve("myid"), myId + "\n", StandardCharsets.UTF_8);
        }
    }

    @Override
    public List<String> command(Path dir, int port) {
        String classPath = Files.isRegularFile(SLF4J_SIMPLE) ? JAR + ":" + SLF4J_SIMPLE : JAR.toString();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return List.of(
                java,
                // a small, quick-starting JVM: four of these share two cores with the tests
                "-Xmx128m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xss512k",
                "-Dzookeeper.jmx.log4j.disable=true",
                "-cp",
                classPath,
                serverLines.isEmpty()
                        ? "org.apache.zookeeper.server.ZooKeeperServerMain"
                        : "org.apache.zookeeper.server.quorum.QuorumPeerMain",
                dir.resolve("zoo.cfg").toString());
    }

    @Override
    public boolean ready(int port) throws IOException {
        return mode(port) != null;
    }

    /** The server's mode (standalone, leader, follower), or null while it does not serve. */
    static String mode(int port) throws IOException {
        for (String line : Probes.zookeeper(LocalServer.HOST, port, "srvr").split("\n")) {
            if (line.startsWith("Mode: ")) {
                return line.substring("Mode: ".length()).trim();
            }
        }
        return null;
    }

    @Override
    public String version(int port) throws IOException {
        for (String line : Probes.zookeeper(LocalServer.HOST, port, "srvr").split("\n")) {
            if (line.startsWith("Zookeeper version: ")) {
                Matcher m = VERSION.matcher(line);
                return m.find()
                        ? m.group()
                        : line.substring("Zookeeper version: ".length()).trim();
            }
        }
        return "unknown";
    }

    @Override
    public String uri(int port) {
        return "zookeeper://" + LocalServer.HOST + ":" + port;
    }
}
