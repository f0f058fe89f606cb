package io.locksmith.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SQLite's clock as the statements read it ({@link NamedSql#SQLITE_NOW_MS}) is the database's own
 * millisecond: a clock a millisecond behind ends every lease it times a millisecond early, and a
 * rate limiter's window with it.
 */
class SqliteClockTest {

    @Test
    void theClockInMillisecondsIsSqlitesOwnMillisecond() throws SQLException {
        // 'now' is one instant for the whole statement, so both columns read the same clock
        String sql = "SELECT " + NamedSql.SQLITE_NOW_MS + " % 1000, CAST(substr(strftime('%f', 'now'), 4) AS INTEGER)";
        List<String> behind = new ArrayList<>();
        try (Connection c = Database.SQLITE.admin();
                PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < 2_000; i++) {
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    long read = r.getLong(1);
                    long own = r.getLong(2);
                    if (read != own) {
                        behind.add(read + " for " + own);
                    }
                }
            }
        }
        assertThat(behind).as("milliseconds read as another millisecond").isEmpty();
    }
}
