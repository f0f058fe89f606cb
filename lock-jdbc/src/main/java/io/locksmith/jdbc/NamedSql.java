package io.locksmith.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One SQL statement shipped as a resource ({@code DIALECT/NAME.sql} next to this class), with
 * named bind parameters ({@code :owner}) documented in the resource's header and bound by name.
 *
 * <p>The resource may use {@code {table}} for the lock table's name, which is checked to be a
 * plain (optionally schema-qualified) identifier before it is put in, and {@code {channel}} for
 * the PostgreSQL notification channel (letters, digits and {@code _} only), and {@code {now_ms}}
 * for SQLite's clock ({@link #SQLITE_NOW_MS}); nothing else is ever put into SQL text. Comments ({@code --} to the end of the line) are dropped; quoted text and
 * {@code ::} casts are left alone.
 */
final class NamedSql {

    /**
     * SQLite's clock as Unix milliseconds. SQLite keeps {@code 'now'} in whole milliseconds and
     * hands it out as a Julian day, a floating-point number of days; converted back, it lands a
     * hair either side of the millisecond, and a plain {@code CAST} would truncate half of them to
     * the millisecond before. {@code ROUND} gives the millisecond itself.
     */
    static final String SQLITE_NOW_MS = "CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)";

    private final String resource;
    private final String text;
    private final List<String> parameters;

    private NamedSql(String resource, String text, List<String> parameters) {
        this.resource = resource;
        this.text = text;
        this.parameters = parameters;
    }

    /**
     * @param dialect the folder of the resource
     * @param name the statement's name, without {@code .sql}
     * @param table the lock table, already checked by {@link JdbcSettings}
     * @return the statement
     */
    static NamedSql load(String dialect, String name, String table) {
        return load(dialect, name, table, "");
    }

    /**
     * @param channel the notification channel for {@code {channel}}, made by {@link Keys#channel}
     */
    static NamedSql load(String dialect, String name, String table, String channel) {
        String resource = dialect + "/" + name + ".sql";
        try (InputStream in = NamedSql.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("SQL resource " + resource + " is missing from lock-jdbc");
            }
            String raw = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("{table}", table)
                    .replace("{channel}", channel)
                    .replace("{now_ms}", SQLITE_NOW_MS);
            return parse(resource, raw);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static NamedSql parse(String resource, String raw) {
        StringBuilder sql = new StringBuilder(raw.length());
        List<String> names = new ArrayList<>();
        int i = 0;
        while (i < raw.length()) {
            char c = raw.charAt(i);
            if (c == '-' && i + 1 < raw.length() && raw.charAt(i + 1) == '-') {
                while (i < raw.length() && raw.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '\'') {
                int end = raw.indexOf('\'', i + 1);
                sql.append(raw, i, end + 1);
                i = end + 1;
            } else if (c == ':' && i + 1 < raw.length() && raw.charAt(i + 1) == ':') {
                sql.append("::");
                i += 2;
            } else if (c == ':' && i + 1 < raw.length() && Character.isLetter(raw.charAt(i + 1))) {
                int end = i + 1;
                while (end < raw.length() && (Character.isLetterOrDigit(raw.charAt(end)) || raw.charAt(end) == '_')) {
                    end++;
                }
                names.add(raw.substring(i + 1, end));
                sql.append('?');
                i = end;
            } else {
                sql.append(c);
                i++;
            }
        }
        return new NamedSql(resource, sql.toString().strip(), List.copyOf(names));
    }

    /** @return the SQL as sent to the driver, with {@code ?} for each parameter */
    String text() {
        return text;
    }

    /**
     * Prepares the statement and binds every parameter it names from {@code values}.
     *
     * @throws IllegalStateException if a parameter has no value: a bug in this module, not the user's
     */
    PreparedStatement prepare(Connection connection, Map<String, ?> values, int timeoutSeconds) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(text);
        try {
            statement.setQueryTimeout(timeoutSeconds);
            bind(statement, values);
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }

    /** Binds the parameters for one more row of a batch. */
    void bind(PreparedStatement statement, Map<String, ?> values) throws SQLException {
        for (int p = 0; p < parameters.size(); p++) {
            String name = parameters.get(p);
            if (!values.containsKey(name)) {
                throw new IllegalStateException(resource + " needs parameter :" + name + ", which was not given");
            }
            statement.setObject(p + 1, values.get(name));
        }
    }

    @Override
    public String toString() {
        return resource;
    }
}
