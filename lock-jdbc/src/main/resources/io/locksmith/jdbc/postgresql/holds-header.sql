-- First step of an attempt's transaction: creates the key's header row if it has none, and
-- locks it (ON CONFLICT DO UPDATE takes the row lock even though it changes nothing), so that
-- attempts on one key run one at a time until the transaction ends.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :key       TEXT      the key itself
--
-- Returns permits (what the key's holders agreed on; 0 before any) and token (the latest grant's).
INSERT INTO {table} AS h (family, hold_key, owner, kind, hold_name, permits, token, expires_at)
VALUES (:family, :key_hash, '', 'H', :key, 0, 0, statement_timestamp())
ON CONFLICT (family, hold_key, owner) DO UPDATE SET token = h.token
RETURNING h.permits, h.token
