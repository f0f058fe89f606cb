-- Extends one lease if its owner still holds it; run as a JDBC batch, one row per held lease.
--
-- :key_hash  TEXT     SHA-256 of the key, hex
-- :owner     TEXT     the holding acquisition
-- :token     INTEGER  the grant's fencing token
-- :lease_ms  INTEGER  the new lease in milliseconds, from now by the database's clock
--
-- Update count 1: renewed; 0: no longer this owner's (or its lease already ran out).
UPDATE {table}
   SET expires_at = {now_ms} + 1 + :lease_ms
 WHERE lock_key = :key_hash AND owner = :owner AND token = :token
   AND expires_at > {now_ms}
