-- Takes a lock (first half of an attempt, followed by acquire-read): inserts its row, or takes
-- the row over when it is free (released, or its lease ran out by the database's clock) or
-- already this acquisition's (an earlier attempt of the same wait took it, its answer lost). A
-- held row is left as it is.
--
-- The statement must not depend on the order in which the SET list is evaluated: by default
-- MariaDB and MySQL let each assignment see the ones to its left, but under
-- sql_mode=SIMULTANEOUS_ASSIGNMENT (MariaDB 10.3+) each sees the row as it was. So:
--   token goes first, and reads only columns nothing has assigned yet: +1 when the row is
--     taken from another owner (or from none), unchanged when it is already this owner's, so
--     a retry is given the token its lost answer carried;
--   owner and expires_at both test "free or ours" in full. That test has the same answer on
--     the row before and after the update (a taken row's owner is this one's; a row not taken
--     is unchanged), so it does not matter which of them an assignment sees. expires_at goes
--     after owner: it may see the new owner, never a new expires_at beside the old owner.
-- UTC_TIMESTAMP(6) is the statement's start, the same in every assignment.
--
-- :key_hash  CHAR(64)  SHA-256 of the key, hex (the primary key)
-- :key       TEXT      the key itself
-- :owner     VARCHAR   the acquisition's owner id
-- :lease_us  BIGINT    the lease in microseconds
INSERT INTO {table} (lock_key, lock_name, owner, token, expires_at)
VALUES (:key_hash, :key, :owner, 1, UTC_TIMESTAMP(6) + INTERVAL :lease_us MICROSECOND)
ON DUPLICATE KEY UPDATE
    token = IF(owner <=> VALUES(owner), token,
               IF(owner IS NULL OR expires_at <= UTC_TIMESTAMP(6), token + 1, token)),
    owner = IF(owner IS NULL OR expires_at <= UTC_TIMESTAMP(6) OR owner = VALUES(owner), VALUES(owner), owner),
    expires_at = IF(owner IS NULL OR expires_at <= UTC_TIMESTAMP(6) OR owner = VALUES(owner), VALUES(expires_at), expires_at)
