-- Takes a lock in one statement (SQLite 3.35 or newer): inserts its row, or takes the row over
-- when it is free (released, or its lease ran out by the database's clock) or already this
-- acquisition's (an earlier attempt of the same wait took it, its answer lost: the token stays
-- the one it got). 'now' is the same for the whole statement; SET sees the row as it was.
--
-- :key_hash  TEXT     SHA-256 of the key, hex (the primary key)
-- :key       TEXT     the key itself
-- :owner     TEXT     the acquisition's owner id
-- :lease_ms  INTEGER  the lease in milliseconds
--
-- Returns one row with the new token when granted, none when the lock is held.
INSERT INTO {table} (lock_key, lock_name, owner, token, expires_at)
VALUES (:key_hash, :key, :owner, 1, {now_ms} + 1 + :lease_ms)
ON CONFLICT (lock_key) DO UPDATE
   SET owner = excluded.owner, expires_at = excluded.expires_at,
       token = CASE WHEN owner = excluded.owner THEN token ELSE token + 1 END
 WHERE owner IS NULL
    OR expires_at <= {now_ms}
    OR owner = excluded.owner
RETURNING token, NULL AS remaining_ms
