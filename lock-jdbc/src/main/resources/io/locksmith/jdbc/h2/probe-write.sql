-- Checks at open that the database accepts writes to the lock table: it changes nothing, but a
-- read-only database or a missing privilege rejects it.
--
-- :key_hash  CHAR(64)  a key that no lock has ('-')
UPDATE {table} SET token = token WHERE lock_key = :key_hash
