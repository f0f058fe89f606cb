-- Extends every permit, read and write lease of one renewal tick that its owner still holds, in
-- one statement; the rows are locked in key order first, so that renewals and attempts never
-- wait on each other in a cycle. Marks (token 0) are never renewed: each attempt refreshes its own.
--
-- :families    TEXT[]    each lease's family, 'S' or 'R'
-- :key_hashes  TEXT[]    SHA-256 of each lease's key, hex, in the same order
-- :owners      TEXT[]    each lease's owner
-- :tokens      BIGINT[]  each grant's fencing token
-- :leases_ms   BIGINT[]  each new lease in milliseconds, from now by the database's clock
--
-- Returns family, hold_key and owner of every lease renewed; the others are no longer their
-- owner's (or their lease already ran out).
WITH wanted AS (
    SELECT *
      FROM unnest(CAST(:families AS TEXT[]), CAST(:key_hashes AS TEXT[]), CAST(:owners AS TEXT[]),
                  CAST(:tokens AS BIGINT[]), CAST(:leases_ms AS BIGINT[])) AS w(family, hold_key, owner, token, lease_ms)
), locked AS (
    SELECT h.family, h.hold_key, h.owner
      FROM {table} AS h JOIN wanted AS w
        ON h.family = w.family AND h.hold_key = w.hold_key AND h.owner = w.owner
     WHERE h.token = w.token AND h.kind <> 'M' AND h.expires_at > statement_timestamp()
     ORDER BY h.family, h.hold_key, h.owner
       FOR UPDATE OF h
)
UPDATE {table} AS h
   SET expires_at = statement_timestamp() + make_interval(secs => CAST(w.lease_ms AS DOUBLE PRECISION) / 1000)
  FROM wanted AS w, locked AS k
 WHERE h.family = w.family AND h.hold_key = w.hold_key AND h.owner = w.owner
   AND h.family = k.family AND h.hold_key = k.hold_key AND h.owner = k.owner
   AND h.token = w.token AND h.expires_at > statement_timestamp()
RETURNING h.family, h.hold_key, h.owner
