-- The lock table (MariaDB, MySQL). One row per lock key, kept after release so that the
-- fencing token never goes back. The key is stored hashed because index keys are limited to a
-- few thousand bytes; the name in full as utf8mb4 text. No bind parameters.
CREATE TABLE IF NOT EXISTS {table} (
    lock_key   CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
    lock_name  TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    owner      VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin,
    token      BIGINT NOT NULL,
    expires_at DATETIME(6) NOT NULL -- end of the lease, UTC, by the database's clock
) ENGINE = InnoDB
