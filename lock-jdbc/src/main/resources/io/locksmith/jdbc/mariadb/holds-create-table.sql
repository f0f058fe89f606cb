-- The holds table (MariaDB, MySQL): semaphores' permits and read-write locks' readers and
-- writers, next to the lock table and named after it ({table} is the lock table's name and
-- "_holds"). Per key of a family, one header row (owner '', kind 'H') carries the permits its
-- holders agreed on and the fencing token counter; it stays after the last holder goes, so that
-- tokens never go back. Every other row is one holder (kind 'P' permit, 'R' reader, 'W' writer)
-- or one waiting writer's mark (kind 'M'). No bind parameters.
CREATE TABLE IF NOT EXISTS {table} (
    family     CHAR(1) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,      -- 'S' semaphore, 'R' read-write lock
    hold_key   CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,     -- SHA-256 of the key, hex
    owner      VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL, -- '' for the header row
    kind       CHAR(1) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,      -- 'H', 'P', 'R', 'W' or 'M'
    hold_name  TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,              -- the key itself, on the header
    permits    INT NOT NULL,       -- header: the holders' permits (semaphores); holders: theirs
    token      BIGINT NOT NULL,    -- header: the latest grant's token; holders: their grant's
    expires_at DATETIME(6) NOT NULL, -- end of the lease, UTC, by the database's clock
    PRIMARY KEY (family, hold_key, owner)
) ENGINE = InnoDB
