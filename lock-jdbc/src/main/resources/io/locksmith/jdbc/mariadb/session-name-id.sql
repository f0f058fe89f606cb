-- Reads a key's id in the names table. Changes nothing.
--
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
--
-- Returns the id, or no row when the key has none yet.
SELECT id FROM {table}_names WHERE lock_key = :key_hash
