-- Frees a lock if its owner still holds it, and wakes waiters: the row stays (owner NULL,
-- expired now) so that its token keeps counting; pg_notify is sent when the statement commits.
--
-- :key_hash  CHAR(64)  SHA-256 of the key, hex; also the notification's payload
-- :owner     TEXT      the holding acquisition
-- :token     BIGINT    the grant's fencing token
-- :channel   TEXT      the notification channel of the lock table
--
-- Returns one row when the lock was released, none when it was not this owner's.
WITH freed AS (
    UPDATE {table} SET owner = NULL, expires_at = now()
     WHERE lock_key = :key_hash AND owner = :owner AND token = :token
    RETURNING lock_key
)
SELECT pg_notify(:channel, lock_key) FROM freed
