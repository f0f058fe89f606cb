-- First step of an attempt's transaction: creates the key's header row if it has none (the
-- update changes nothing; one assignment, so sql_mode=SIMULTANEOUS_ASSIGNMENT cannot change it).
-- holds-header-read then locks and reads it.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :key       TEXT      the key itself
INSERT INTO {table} (family, hold_key, owner, kind, hold_name, permits, token, expires_at)
VALUES (:family, :key_hash, '', 'H', :key, 0, 0, UTC_TIMESTAMP(6))
ON DUPLICATE KEY UPDATE token = token
