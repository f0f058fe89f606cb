-- Extends one permit, read or write lease if its owner still holds it; run as a JDBC batch, one
-- row per held lease, sorted by key. Marks (token 0) are never renewed.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :owner     VARCHAR   the holding acquisition
-- :token     BIGINT    the grant's fencing token
-- :lease_ms  BIGINT    the new lease in milliseconds, from now by the database's clock
--
-- Update count 1: renewed; 0: no longer this owner's (or its lease already ran out).
UPDATE {table}
   SET expires_at = DATEADD(MILLISECOND, CAST(:lease_ms AS BIGINT), CURRENT_TIMESTAMP)
 WHERE family = :family AND hold_key = :key_hash AND owner = :owner AND token = :token
   AND kind <> 'M' AND expires_at > CURRENT_TIMESTAMP
