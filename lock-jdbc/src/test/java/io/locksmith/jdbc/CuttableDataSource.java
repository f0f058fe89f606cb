package io.locksmith.jdbc;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A DataSource over DriverManager whose connections can be cut, for the kit's fault hooks: while
 * cut, new connections are refused and every call on an open one fails as a dropped network
 * connection would (SQLState 08006), until restored.
 */
final class CuttableDataSource implements DataSource {

    private final String url;
    private final Properties properties;
    private final String onConnect;
    private volatile boolean cut;
    /** Statements prepared or created on this source's connections: each is one round trip or batch. */
    final java.util.concurrent.atomic.AtomicInteger statements = new java.util.concurrent.atomic.AtomicInteger();

    CuttableDataSource(String url, Properties properties) {
        this(url, properties, null);
    }

    /**
     * @param onConnect a statement run on every new connection before the client sees it (a
     *     session setting a DBA could make the server's default), or {@code null}
     */
    CuttableDataSource(String url, Properties properties, String onConnect) {
        this.url = url;
        this.properties = properties;
        this.onConnect = onConnect;
    }

    void cut(boolean now) {
        cut = now;
    }

    @Override
    public Connection getConnection() throws SQLException {
        refuseIfCut();
        Connection real = DriverManager.getConnection(url, properties);
        if (onConnect != null) {
            try (java.sql.Statement s = real.createStatement()) {
                s.execute(onConnect);
            } catch (SQLException e) {
                real.close();
                throw e;
            }
        }
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    String name = method.getName();
                    if (!name.equals("close") && !name.equals("isClosed")) {
                        refuseIfCut();
                    }
                    if (name.equals("prepareStatement") || name.equals("createStatement")) {
                        statements.incrementAndGet();
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private void refuseIfCut() throws SQLException {
        if (cut) {
            throw new SQLException("connection cut by the test", "08006");
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("credentials ride in the URL in tests");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return false;
    }
}
