-- The lock table (SQLite). One row per lock key, kept after release so that the fencing token
-- never goes back. SQLite has no timestamp type: expires_at is Unix time in milliseconds by the
-- database's clock, which the statements read as {now_ms} (NamedSql.SQLITE_NOW_MS). That clock is
-- the instant rounded down to its millisecond, so a lease is counted from the next millisecond
-- ({now_ms} + 1 + the lease): it never ends before its whole length has passed.
-- No bind parameters.
CREATE TABLE IF NOT EXISTS {table} (
    lock_key   TEXT    NOT NULL PRIMARY KEY, -- SHA-256 of the key, lower-case hex
    lock_name  TEXT    NOT NULL,             -- the key itself (prefix and name)
    owner      TEXT,                         -- the holding acquisition; NULL when free
    token      INTEGER NOT NULL,             -- the fencing token of the latest grant
    expires_at INTEGER NOT NULL              -- end of the lease, Unix milliseconds
)
