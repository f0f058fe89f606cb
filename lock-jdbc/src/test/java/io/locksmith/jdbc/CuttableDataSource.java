package io.locksmith.jdbc;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A DataSource over DriverManager whose connections can be cut or slowed, for the kit's fault
 * hooks: while cut, new connections are refused and every call on an open one fails as a dropped
 * network connection would (SQLState 08006), until restored; while replies are delayed, every
 * statement runs on the database at once and its caller gets on only after the delay (closing
 * the statement waits for it), as over a slow path back. Working at the JDBC level, both hooks
 * serve the embedded databases (H2, SQLite) as well as the servers.
 */
final class CuttableDataSource implements DataSource {

    private final String url;
    private final Properties properties;
    private final String onConnect;
    private final boolean keptStatements;
    private volatile boolean cut;
    private volatile long replyDelayNanos;
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
        this(url, properties, onConnect, false);
    }

    /**
     * @param keptStatements whether the client keeps its statements prepared and runs them again
     *     (session mode): then a cut also fails a statement's execution, and a reply is held back
     *     after each execution, the reply's arrival, since such a statement is not closed after use
     */
    CuttableDataSource(String url, Properties properties, String onConnect, boolean keptStatements) {
        this.url = url;
        this.properties = properties;
        this.onConnect = onConnect;
        this.keptStatements = keptStatements;
    }

    void cut(boolean now) {
        cut = now;
    }

    /** Holds back the outcome of every statement by {@code delay}; zero ends it. */
    void delayReplies(Duration delay) {
        replyDelayNanos = delay.toNanos();
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
        return (Connection) Proxy.newProxyInstance(
                Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    String name = method.getName();
                    if (!name.equals("close") && !name.equals("isClosed")) {
                        refuseIfCut();
                    }
                    boolean statement = name.equals("prepareStatement") || name.equals("createStatement");
                    if (statement) {
                        statements.incrementAndGet();
                    }
                    Object result = invoke(method, real, args);
                    return statement ? delaying(method.getReturnType(), result) : result;
                });
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * A statement whose caller gets on only after the reply delay, if one is set, counted from
     * when the statement is done with: its close. Not from its execution: a SQLite upsert with
     * RETURNING commits only when its result has been read and the statement reset.
     */
    private Object delaying(Class<?> type, Object real) {
        return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            if (keptStatements && method.getName().startsWith("execute")) {
                refuseIfCut();
                try {
                    return invoke(method, real, args);
                } finally {
                    holdBack();
                }
            }
            if (keptStatements || !method.getName().equals("close")) {
                return invoke(method, real, args);
            }
            try {
                return invoke(method, real, args);
            } finally {
                holdBack();
            }
        });
    }

    private void holdBack() throws SQLException {
        long delay = replyDelayNanos;
        if (delay > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(delay); // the subject of the hook: a reply that arrives late
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while the test held back a reply", "08006", e);
            }
        }
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
