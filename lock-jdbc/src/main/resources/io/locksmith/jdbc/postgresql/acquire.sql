-- Takes a lock in one statement: inserts its row, or takes the row over when it is free
-- (released, or its lease ran out by the database's clock) or already this acquisition's (an
-- earlier attempt of the same wait took it, its answer lost: the token stays the one it got).
--
-- :key_hash  CHAR(64)  SHA-256 of the key, hex (the primary key)
-- :key       TEXT      the key itself
-- :owner     TEXT      the acquisition's owner id
-- :lease_ms  BIGINT    the lease in milliseconds
--
-- Returns one row with token set (the new fencing token: 1, or the previous one plus 1) when
-- granted (or the token it already has); otherwise one row with remaining_ms (the holder's remaining lease as the statement's
-- snapshot saw it, a hint for waiters), or no row at all when the row appeared concurrently.
WITH attempt AS (
    INSERT INTO {table} AS l (lock_key, lock_name, owner, token, expires_at)
    VALUES (:key_hash, :key, :owner, 1, now() + make_interval(secs => CAST(:lease_ms AS DOUBLE PRECISION) / 1000))
    ON CONFLICT (lock_key) DO UPDATE
       SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at,
           token = CASE WHEN l.owner = EXCLUDED.owner THEN l.token ELSE l.token + 1 END
     WHERE l.owner IS NULL OR l.expires_at <= now() OR l.owner = EXCLUDED.owner
    RETURNING l.token
)
SELECT token, CAST(NULL AS BIGINT) AS remaining_ms FROM attempt
UNION ALL
SELECT CAST(NULL AS BIGINT), CAST(GREATEST(0, EXTRACT(EPOCH FROM (expires_at - now())) * 1000) AS BIGINT)
  FROM {table}
 WHERE lock_key = :key_hash AND NOT EXISTS (SELECT 1 FROM attempt)
