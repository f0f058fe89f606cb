-- Extends every lease of one renewal tick that its owner still holds, in one statement.
-- The rows are locked in key order first (FOR UPDATE over a sorted scan), so that two clients'
-- renewals can never wait on each other in a cycle.
--
-- :key_hashes  TEXT[]    SHA-256 of each lease's key, hex
-- :owners      TEXT[]    each lease's owner, in the same order
-- :tokens      BIGINT[]  each grant's fencing token, in the same order
-- :leases_ms   BIGINT[]  each new lease in milliseconds, from now by the database's clock
--
-- Returns lock_key and owner of every lease renewed; the others are no longer their owner's
-- (or their lease already ran out).
WITH wanted AS (
    SELECT *
      FROM unnest(CAST(:key_hashes AS TEXT[]), CAST(:owners AS TEXT[]), CAST(:tokens AS BIGINT[]),
                  CAST(:leases_ms AS BIGINT[])) AS w(lock_key, owner, token, lease_ms)
), locked AS (
    SELECT l.lock_key
      FROM {table} AS l JOIN wanted AS w ON l.lock_key = w.lock_key
     WHERE l.owner = w.owner AND l.token = w.token AND l.expires_at > now()
     ORDER BY l.lock_key
       FOR UPDATE OF l
)
UPDATE {table} AS l
   SET expires_at = now() + make_interval(secs => CAST(w.lease_ms AS DOUBLE PRECISION) / 1000)
  FROM wanted AS w, locked AS k
 WHERE l.lock_key = w.lock_key AND l.lock_key = k.lock_key
   AND l.owner = w.owner AND l.token = w.token AND l.expires_at > now()
RETURNING l.lock_key, l.owner
