package io.locksmith.testing;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A server named by a {@code LOCKSMITH_TEST_*_URI} variable: tests use it, nobody controls it. */
final class ExternalServer extends UncontrolledServer {

    // the first host:port after "//" (URIs, JDBC URLs) or after "BlobEndpoint=http(s)://"
    private static final Pattern HOST_PORT = Pattern.compile("//(?:[^@/;]*@)?(\\[[^]]+]|[^:/,;?#]+)(?::(\\d+))?");

    private final Backend backend;
    private final String uri;
    private final String host;
    private final int port;

    private ExternalServer(Backend backend, String uri, String host, int port) {
        this.backend = backend;
        this.uri = uri;
        this.host = host;
        this.port = port;
    }

    /** The server the backend's variable names. The message never repeats the value: it may hold a password. */
    static ExternalServer fromVariable(Backend backend, String value) {
        String where = value;
        int blob = value.indexOf("BlobEndpoint=");
        if (blob >= 0) {
            where = value.substring(blob);
        }
        Matcher m = HOST_PORT.matcher(where);
        if (!m.find()) {
            throw new TestServerException(backend.environmentVariable() + " is set but names no host"
                    + " (expected a URI such as " + example(backend) + ")");
        }
        int port = m.group(2) != null ? Integer.parseInt(m.group(2)) : defaultPort(backend);
        return new ExternalServer(backend, value, m.group(1), port);
    }

    private static String example(Backend backend) {
        return switch (backend) {
            case REDIS -> "redis://host:6379";
            case ETCD -> "etcd://host:2379";
            case ZOOKEEPER -> "zookeeper://host:2181";
            case POSTGRES -> "jdbc:postgresql://host:5432/postgres?user=postgres";
            case MARIADB -> "jdbc:mariadb://host:3306/test?user=root";
            case AZURITE -> "an Azure Storage connection string with BlobEndpoint=http://host:10000/devstoreaccount1";
        };
    }

    private static int defaultPort(Backend backend) {
        return switch (backend) {
            case REDIS -> 6379;
            case ETCD -> 2379;
            case ZOOKEEPER -> 2181;
            case POSTGRES -> 5432;
            case MARIADB -> 3306;
            case AZURITE -> 10000;
        };
    }

    @Override
    String whyUncontrolled() {
        return "this " + backend.displayName()
                + " is the external server named by " + backend.environmentVariable()
                + "; unset it to let the tests start their own";
    }

    @Override
    public Backend backend() {
        return backend;
    }

    @Override
    public String uri() {
        return uri;
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String version() {
        return "unknown";
    }

    @Override
    public String toString() {
        return "external " + backend.displayName() + "@" + host + ":" + port;
    }
}
