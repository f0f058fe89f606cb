-- Frees a lock taken by an attempt whose outcome is unknown (its answer lost, the caller gone),
-- if that attempt's owner holds it, and wakes waiters. The token is not known, so only the owner
-- is compared: owner ids are unique per acquisition. The row stays (owner NULL, expired now).
--
-- :key_hash  CHAR(64)  SHA-256 of the key, hex; also the notification's payload
-- :owner     TEXT      the abandoned acquisition's owner id
-- :channel   TEXT      the notification channel of the lock table
--
-- Returns one row when the lock was freed, none when it was not this owner's.
WITH freed AS (
    UPDATE {table} SET owner = NULL, expires_at = now()
     WHERE lock_key = :key_hash AND owner = :owner
    RETURNING lock_key
)
SELECT pg_notify(:channel, lock_key) FROM freed
