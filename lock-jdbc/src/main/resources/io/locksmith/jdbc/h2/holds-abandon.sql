-- Removes an abandoned acquisition's row, whatever it is: a grant whose answer was lost, or a
-- writer's mark (so readers are no longer held back by it). Owner ids are unique per
-- acquisition, so no token is needed.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :owner     VARCHAR   the abandoned acquisition's owner id
--
-- Update count 1: removed; 0: it had no row.
DELETE FROM {table} WHERE family = :family AND hold_key = :key_hash AND owner = :owner
