-- Gives a key its id, or reads the id another client gave it first: the DO UPDATE (which changes
-- nothing) makes the conflicting row's id come back even when that insert committed concurrently.
--
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :key       TEXT      the key itself
--
-- Returns the key's id.
INSERT INTO {table}_names AS n (lock_key, lock_name) VALUES (:key_hash, :key)
ON CONFLICT (lock_key) DO UPDATE SET lock_key = n.lock_key
RETURNING n.id
