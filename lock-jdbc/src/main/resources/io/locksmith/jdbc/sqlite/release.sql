-- Frees a lock if its owner still holds it. The row stays (owner NULL, expired now) so that its
-- token keeps counting.
--
-- :key_hash  TEXT     SHA-256 of the key, hex
-- :owner     TEXT     the holding acquisition
-- :token     INTEGER  the grant's fencing token
--
-- Update count 1: released; 0: it was not this owner's.
UPDATE {table} SET owner = NULL, expires_at = {now_ms}
 WHERE lock_key = :key_hash AND owner = :owner AND token = :token
