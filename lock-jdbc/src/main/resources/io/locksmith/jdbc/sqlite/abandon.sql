-- Frees a lock taken by an attempt whose outcome is unknown (its answer lost, the caller gone),
-- if that attempt's owner holds it. The token is not known, so only the owner is compared:
-- owner ids are unique per acquisition. The row stays (owner NULL, expired now).
--
-- :key_hash  TEXT      SHA-256 of the key, hex
-- :owner     TEXT      the abandoned acquisition's owner id
--
-- Update count 1: freed; 0: it was not this owner's.
UPDATE {table} SET owner = NULL, expires_at = {now_ms}
 WHERE lock_key = :key_hash AND owner = :owner
