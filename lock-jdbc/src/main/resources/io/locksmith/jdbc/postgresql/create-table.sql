-- The lock table (PostgreSQL). One row per lock key, kept after release so that the fencing
-- token never goes back. No bind parameters.
CREATE TABLE IF NOT EXISTS {table} (
    lock_key   CHAR(64)    NOT NULL PRIMARY KEY, -- SHA-256 of the key, lower-case hex
    lock_name  TEXT        NOT NULL,             -- the key itself (prefix and name)
    owner      VARCHAR(255),                     -- the holding acquisition; NULL when free
    token      BIGINT      NOT NULL,             -- the fencing token of the latest grant
    expires_at TIMESTAMPTZ NOT NULL              -- end of the lease, by the database's clock
)
