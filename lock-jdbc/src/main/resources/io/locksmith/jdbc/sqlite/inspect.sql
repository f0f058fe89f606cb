-- Reads who holds a lock, for operations tools; changes nothing. A row whose owner is NULL
-- (released) or whose lease has run out by the database's clock is a free lock. expires_at is
-- Unix milliseconds, compared with the database's clock as acquire.sql does.
--
-- :key_hash  TEXT  SHA-256 of the key, hex
--
-- Returns one row (owner, token, remaining_ms: the lease left by the database's clock) when
-- the lock is held, none when it is free.
SELECT owner, token, expires_at - {now_ms} AS remaining_ms
  FROM {table}
 WHERE lock_key = :key_hash AND owner IS NOT NULL
   AND expires_at > {now_ms}
