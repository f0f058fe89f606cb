-- Frees a holder's row if its owner still holds that grant.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :owner     VARCHAR   the holding acquisition
-- :token     BIGINT    the grant's fencing token
-- :kind      CHAR(1)   'P', 'R' or 'W'
--
-- Update count 1: released; 0: it was not this owner's.
DELETE FROM {table}
 WHERE family = :family AND hold_key = :key_hash AND owner = :owner AND token = :token AND kind = :kind
