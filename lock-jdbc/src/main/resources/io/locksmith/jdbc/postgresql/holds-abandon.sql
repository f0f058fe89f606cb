-- Removes an abandoned acquisition's row, whatever it is: a grant whose answer was lost, or a
-- writer's mark (so readers are no longer held back by it); wakes the key's waiters. Owner ids
-- are unique per acquisition, so no token is needed.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :owner     TEXT      the abandoned acquisition's owner id
-- :channel   TEXT      the notification channel of the lock table
--
-- Returns one row when a row was removed, none otherwise.
WITH freed AS (
    DELETE FROM {table} WHERE family = :family AND hold_key = :key_hash AND owner = :owner
    RETURNING hold_key
)
SELECT pg_notify(:channel, hold_key) FROM freed
