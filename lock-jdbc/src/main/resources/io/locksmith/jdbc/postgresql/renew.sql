-- Extends one lease if its owner still holds it; run as a JDBC batch, one row per held lease,
-- sorted by key so that concurrent batches take row locks in one order and cannot deadlock.
--
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :owner     TEXT      the holding acquisition
-- :token     BIGINT    the grant's fencing token
-- :lease_ms  BIGINT    the new lease in milliseconds, from now by the database's clock
--
-- Update count 1: renewed; 0: no longer this owner's (or its lease already ran out).
UPDATE {table}
   SET expires_at = now() + make_interval(secs => CAST(:lease_ms AS DOUBLE PRECISION) / 1000)
 WHERE lock_key = :key_hash AND owner = :owner AND token = :token AND expires_at > now()
