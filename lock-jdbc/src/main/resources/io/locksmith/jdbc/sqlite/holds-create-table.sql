-- The holds table (SQLite): semaphores' permits and read-write locks' readers and writers, next
-- to the lock table and named after it ({table} is the lock table's name and "_holds"). Per key
-- of a family, one header row (owner '', kind 'H') carries the permits its holders agreed on and
-- the fencing token counter; it stays after the last holder goes, so that tokens never go back.
-- Every other row is one holder (kind 'P' permit, 'R' reader, 'W' writer) or one waiting
-- writer's mark (kind 'M'). expires_at is Unix milliseconds by the database's clock, as in the
-- lock table. No bind parameters.
CREATE TABLE IF NOT EXISTS {table} (
    family     TEXT    NOT NULL, -- 'S' semaphore, 'R' read-write lock: a namespace each
    hold_key   TEXT    NOT NULL, -- SHA-256 of the key, lower-case hex
    owner      TEXT    NOT NULL, -- the holding acquisition; '' for the header row
    kind       TEXT    NOT NULL, -- 'H' header, 'P' permit, 'R' read, 'W' write, 'M' waiting writer
    hold_name  TEXT,             -- the key itself, on the header row
    permits    INTEGER NOT NULL, -- header: the holders' permits (semaphores); holders: theirs
    token      INTEGER NOT NULL, -- header: the latest grant's token; holders: their grant's
    expires_at INTEGER NOT NULL, -- end of the lease, Unix milliseconds
    PRIMARY KEY (family, hold_key, owner)
)
