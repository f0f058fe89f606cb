-- The lock table (H2). One row per lock key, kept after release so that the fencing token
-- never goes back. No bind parameters.
CREATE TABLE IF NOT EXISTS {table} (
    lock_key   CHAR(64)     NOT NULL PRIMARY KEY, -- SHA-256 of the key, lower-case hex
    lock_name  VARCHAR(8000) NOT NULL,            -- the key itself (up to 1,281 code points)
    owner      VARCHAR(255),                      -- the holding acquisition; NULL when free
    token      BIGINT       NOT NULL,             -- the fencing token of the latest grant
    expires_at TIMESTAMP(6) WITH TIME ZONE NOT NULL -- end of the lease, by the database's clock
)
