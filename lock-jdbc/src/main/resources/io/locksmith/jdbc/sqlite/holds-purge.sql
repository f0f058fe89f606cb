-- Deletes the key's holders and marks whose lease ran out by the database's clock; run in an
-- attempt's transaction when its rows showed any.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
DELETE FROM {table}
 WHERE family = :family AND hold_key = :key_hash AND owner <> '' AND expires_at <= {now_ms}
