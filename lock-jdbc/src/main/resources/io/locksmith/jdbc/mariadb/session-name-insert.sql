-- Gives a key its id unless another client gave it one first (then changes nothing); the id is
-- read afterwards with session-name-id.
--
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :key       TEXT      the key itself
INSERT INTO {table}_names (lock_key, lock_name) VALUES (:key_hash, :key)
ON DUPLICATE KEY UPDATE lock_key = lock_key
