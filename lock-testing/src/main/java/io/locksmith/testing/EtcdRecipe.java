package io.locksmith.testing;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One etcd member; a single server is a cluster of one. */
final class EtcdRecipe implements Recipe {

    private static final Pattern VERSION = Pattern.compile("\"etcdserver\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern MEMBER_ID = Pattern.compile("\"member_id\"\\s*:\\s*\"?(\\d+)");
    private static final Pattern LEADER = Pattern.compile("\"leader\"\\s*:\\s*\"?(\\d+)");

    private final Path binary;
    private final String memberName;
    private final int peerPort;
    private final String initialCluster;
    private final String clusterToken;

    /**
     * @param initialCluster every member as {@code name=http://127.0.0.1:peerPort}, comma-separated
     */
    EtcdRecipe(Path binary, String memberName, int peerPort, String initialCluster, String clusterToken) {
        this.binary = binary;
        this.memberName = memberName;
        this.peerPort = peerPort;
        this.initialCluster = initialCluster;
        this.clusterToken = clusterToken;
    }

    static String peerUrl(int peerPort) {
        return "http://" + LocalServer.HOST + ":" + peerPort;
    }

    @Override
    public Backend backend() {
        return Backend.ETCD;
    }

    @Override
    public List<String> command(Path dir, int port) {
        String clientUrl = "http://" + LocalServer.HOST + ":" + port;
        return List.of(
                binary.toString(),
                "--name",
                memberName,
                "--data-dir",
                dir.resolve("data").toString(),
                "--listen-client-urls",
                clientUrl,
                "--advertise-client-urls",
                clientUrl,
                "--listen-peer-urls",
                peerUrl(peerPort),
                "--initial-advertise-peer-urls",
                peerUrl(peerPort),
                "--initial-cluster",
                initialCluster,
                "--initial-cluster-state",
                "new",
                "--initial-cluster-token",
                clusterToken,
                "--logger",
                "zap",
                "--log-level",
                "warn");
    }

    @Override
    public boolean ready(int port) throws IOException {
        HttpResponse<String> health = Probes.http("GET", base(port) + "/health", null);
        return health.statusCode() == 200 && health.body().replace(" ", "").contains("\"health\":\"true\"");
    }

    @Override
    public String version(int port) throws IOException {
        Matcher m = VERSION.matcher(
                Probes.http("GET", base(port) + "/version", null).body());
        return m.find() ? m.group(1) : "unknown";
    }

    /** This member's id and the id of the leader it knows, through the v3 JSON gateway. */
    static long[] memberAndLeader(int port) throws IOException {
        String status =
                Probes.http("POST", base(port) + "/v3/maintenance/status", "{}").body();
        Matcher member = MEMBER_ID.matcher(status);
        Matcher leader = LEADER.matcher(status);
        if (!member.find() || !leader.find()) {
            throw new IOException("no member or leader id in the status: " + status);
        }
        return new long[] {Long.parseUnsignedLong(member.group(1)), Long.parseUnsignedLong(leader.group(1))};
    }

    private static String base(int port) {
        return "http://" + LocalServer.HOST + ":" + port;
    }

    @Override
    public String uri(int port) {
        return "etcd://" + LocalServer.HOST + ":" + port;
    }
}
