-- Takes a lock (first half of an attempt, followed by acquire-read): inserts its row, or takes
-- the row over when it is free (released, or its lease ran out by the database's clock) or
-- already this acquisition's (an earlier attempt of the same wait took it, its answer lost: the
-- token stays the one it got). A held row is left as it is. Two sessions inserting the same new
-- key at once: one fails with a duplicate key and tries again, finding the row.
--
-- :key_hash  CHAR(64)  SHA-256 of the key, hex (the primary key)
-- :key       VARCHAR   the key itself
-- :owner     VARCHAR   the acquisition's owner id
-- :lease_ms  BIGINT    the lease in milliseconds
MERGE INTO {table} AS l
USING (VALUES (CAST(:key_hash AS CHAR(64)), CAST(:key AS VARCHAR(8000)), CAST(:owner AS VARCHAR(255)),
               DATEADD(MILLISECOND, CAST(:lease_ms AS BIGINT), CURRENT_TIMESTAMP)))
      AS r (lock_key, lock_name, owner, expires_at)
   ON l.lock_key = r.lock_key
WHEN MATCHED AND (l.owner IS NULL OR l.expires_at <= CURRENT_TIMESTAMP OR l.owner = r.owner) THEN
    UPDATE SET token = CASE WHEN l.owner = r.owner THEN l.token ELSE l.token + 1 END,
               owner = r.owner, expires_at = r.expires_at
WHEN NOT MATCHED THEN
    INSERT (lock_key, lock_name, owner, token, expires_at) VALUES (r.lock_key, r.lock_name, r.owner, 1, r.expires_at)
