-- Locks and reads the key's header row, so that attempts on one key run one at a time until the
-- transaction ends.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
--
-- Returns permits (what the key's holders agreed on; 0 before any) and token (the latest grant's).
SELECT permits, token FROM {table}
 WHERE family = :family AND hold_key = :key_hash AND owner = ''
   FOR UPDATE
