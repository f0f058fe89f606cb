-- Frees a holder's row if its owner still holds that grant, and wakes the key's waiters
-- (pg_notify is sent when the statement commits; the payload is the key's hash, as for locks).
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :owner     TEXT      the holding acquisition
-- :token     BIGINT    the grant's fencing token
-- :kind      CHAR(1)   'P', 'R' or 'W'
-- :channel   TEXT      the notification channel of the lock table
--
-- Returns one row when released, none when it was not this owner's.
WITH freed AS (
    DELETE FROM {table}
     WHERE family = :family AND hold_key = :key_hash AND owner = :owner AND token = :token AND kind = :kind
    RETURNING hold_key
)
SELECT pg_notify(:channel, hold_key) FROM freed
