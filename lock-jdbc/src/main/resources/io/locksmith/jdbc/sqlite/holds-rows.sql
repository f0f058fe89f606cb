-- Second step of an attempt: reads the key's holders and marks, in owner order (the write lock
-- taken by holds-begin keeps every other writer out until the transaction ends).
--
-- :family    TEXT  'S' semaphore, 'R' read-write lock
-- :key_hash  TEXT  SHA-256 of the key, hex
--
-- Returns owner, kind, token, remaining_ms (the lease left by the database's clock) and live
-- (whether the lease still runs) per row.
SELECT owner, kind, token,
       expires_at - {now_ms} AS remaining_ms,
       expires_at > {now_ms} AS live
  FROM {table}
 WHERE family = :family AND hold_key = :key_hash AND owner <> ''
 ORDER BY owner
