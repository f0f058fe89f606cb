-- The holds table (PostgreSQL): semaphores' permits and read-write locks' readers and writers,
-- next to the lock table and named after it ({table} is the lock table's name and "_holds").
-- Per key of a family, one header row (owner '', kind 'H') carries the permits its holders agreed
-- on and the fencing token counter; it stays after the last holder goes, so that tokens never go
-- back. Every other row is one holder (kind 'P' permit, 'R' reader, 'W' writer) or one waiting
-- writer's mark (kind 'M'). No bind parameters.
CREATE TABLE IF NOT EXISTS {table} (
    family     CHAR(1)      NOT NULL, -- 'S' semaphore, 'R' read-write lock: a namespace each
    hold_key   CHAR(64)     NOT NULL, -- SHA-256 of the key, lower-case hex
    owner      VARCHAR(255) NOT NULL, -- the holding acquisition; '' for the header row
    kind       CHAR(1)      NOT NULL, -- 'H' header, 'P' permit, 'R' read, 'W' write, 'M' waiting writer
    hold_name  TEXT,                  -- the key itself, on the header row
    permits    INTEGER      NOT NULL, -- header: the holders' permits (semaphores); holders: theirs
    token      BIGINT       NOT NULL, -- header: the latest grant's token; holders: their grant's
    expires_at TIMESTAMPTZ  NOT NULL, -- end of the holder's lease (a mark's: twice the writer's)
    PRIMARY KEY (family, hold_key, owner)
)
