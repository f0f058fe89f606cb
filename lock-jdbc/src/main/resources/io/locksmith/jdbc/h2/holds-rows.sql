-- Second step of an attempt: reads and locks the key's holders and marks, in owner order.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
--
-- Returns owner, kind, token, remaining_ms (the lease left by the database's clock) and live
-- (whether the lease still runs) per row.
SELECT owner, kind, token,
       DATEDIFF(MILLISECOND, CURRENT_TIMESTAMP, expires_at) AS remaining_ms,
       expires_at > CURRENT_TIMESTAMP AS live
  FROM {table}
 WHERE family = :family AND hold_key = :key_hash AND owner <> ''
 ORDER BY owner
   FOR UPDATE
