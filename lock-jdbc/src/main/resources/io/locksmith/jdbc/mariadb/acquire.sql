-- Takes a lock (first half of an attempt, followed by acquire-read): inserts its row, or takes
-- the row over when it is free (released, or its lease ran out by the database's clock) or
-- already this acquisition's. A held row is left as it is.
--
-- Assignments run left to right and later ones see earlier results: owner goes first, and token
-- and expires_at change only when owner is now this acquisition's (owner ids are unique per
-- acquisition, so that is exactly when it was taken).
--
-- :key_hash  CHAR(64)  SHA-256 of the key, hex (the primary key)
-- :key       TEXT      the key itself
-- :owner     VARCHAR   the acquisition's owner id
-- :lease_us  BIGINT    the lease in microseconds
INSERT INTO {table} (lock_key, lock_name, owner, token, expires_at)
VALUES (:key_hash, :key, :owner, 1, UTC_TIMESTAMP(6) + INTERVAL :lease_us MICROSECOND)
ON DUPLICATE KEY UPDATE
    owner = IF(owner IS NULL OR expires_at <= UTC_TIMESTAMP(6) OR owner = VALUES(owner), VALUES(owner), owner),
    token = IF(owner = VALUES(owner), token + 1, token),
    expires_at = IF(owner = VALUES(owner), VALUES(expires_at), expires_at)
