package io.locksmith.testing;

class MariaDbServerTest extends ServerContract {

    @Override
    TestServer server() {
        return TestServers.mariadb();
    }

    @Override
    String uriPrefix() {
        return "jdbc:mariadb://127.0.0.1:";
    }

    @Override
    void ping(TestServer server) throws Exception {
        PostgresServerTest.selectOne(server.uri() + "&connectTimeout=2000&socketTimeout=3000");
    }
}
