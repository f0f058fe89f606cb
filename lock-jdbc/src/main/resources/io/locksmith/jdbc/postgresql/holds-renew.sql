-- Extends one permit, read or write lease if its owner still holds it; run as a JDBC batch
-- when the renew-all statement is not used.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :owner     TEXT      the holding acquisition
-- :token     BIGINT    the grant's fencing token
-- :lease_ms  BIGINT    the new lease in milliseconds, from now by the database's clock
--
-- Update count 1: renewed; 0: no longer this owner's (or its lease already ran out).
UPDATE {table}
   SET expires_at = statement_timestamp() + make_interval(secs => CAST(:lease_ms AS DOUBLE PRECISION) / 1000)
 WHERE family = :family AND hold_key = :key_hash AND owner = :owner AND token = :token
   AND kind <> 'M' AND expires_at > statement_timestamp()
