-- A grant's step on the header row (locked by holds-header): the new latest token, and the
-- permits the key's holders now agree on.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :token     BIGINT    the grant's token: the header's plus 1
-- :permits   INTEGER   the semaphore's permits; 0 for a read-write lock
UPDATE {table} SET token = :token, permits = :permits
 WHERE family = :family AND hold_key = :key_hash AND owner = ''
