-- First step of an attempt's transaction (after holds-begin): creates the key's header row if it
-- has none, and reads it.
--
-- :family    TEXT  'S' semaphore, 'R' read-write lock
-- :key_hash  TEXT  SHA-256 of the key, hex
-- :key       TEXT  the key itself
--
-- Returns permits (what the key's holders agreed on; 0 before any) and token (the latest grant's).
INSERT INTO {table} (family, hold_key, owner, kind, hold_name, permits, token, expires_at)
VALUES (:family, :key_hash, '', 'H', :key, 0, 0, {now_ms})
ON CONFLICT (family, hold_key, owner) DO UPDATE SET token = token
RETURNING permits, token
