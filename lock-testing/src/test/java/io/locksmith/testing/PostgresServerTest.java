package io.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class PostgresServerTest extends ServerContract {

    @Override
    TestServer server() {
        return TestServers.postgres();
    }

    @Override
    String uriPrefix() {
        return "jdbc:postgresql://127.0.0.1:";
    }

    @Override
    void ping(TestServer server) throws Exception {
        selectOne(server.uri() + "&connectTimeout=2&loginTimeout=3&socketTimeout=3");
    }

    @Test
    void pauseFreezesOpenConnectionsToo() throws Exception {
        TestServer server = server();
        // an open connection is served by its own backend process, a child of the server
        try (Connection connection = DriverManager.getConnection(server.uri() + "&socketTimeout=1")) {
            server.pause();
            try {
                assertThatThrownBy(() -> selectOne(connection)).isInstanceOf(SQLException.class);
            } finally {
                server.resume();
            }
        }
        ping(server);
    }

    static void selectOne(String url) throws Exception {
        try (Connection connection = DriverManager.getConnection(url)) {
            selectOne(connection);
        }
    }

    private static void selectOne(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT 1")) {
            assertThat(result.next()).isTrue();
            assertThat(result.getInt(1)).isEqualTo(1);
        }
    }
}
