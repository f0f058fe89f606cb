-- The lock table (SQLite). One row per lock key, kept after release so that the fencing token
-- never goes back. SQLite has no timestamp type: expires_at is Unix time in milliseconds by the
-- database's clock, computed as CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER).
-- No bind parameters.
CREATE TABLE IF NOT EXISTS {table} (
    lock_key   TEXT    NOT NULL PRIMARY KEY, -- SHA-256 of the key, lower-case hex
    lock_name  TEXT    NOT NULL,             -- the key itself (prefix and name)
    owner      TEXT,                         -- the holding acquisition; NULL when free
    token      INTEGER NOT NULL,             -- the fencing token of the latest grant
    expires_at INTEGER NOT NULL              -- end of the lease, Unix milliseconds
)
