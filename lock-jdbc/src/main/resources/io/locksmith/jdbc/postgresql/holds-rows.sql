-- Second step of an attempt: reads and locks the key's holders and marks, in owner order. FOR
-- UPDATE reads each row as its latest commit left it (a renewal that committed while this
-- statement waited is seen), so a lease renewed at its last moment is never counted as gone.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
--
-- Returns owner, kind, token, remaining_ms (the lease left by the database's clock) and live
-- (whether the lease still runs) per row.
SELECT owner, kind, token,
       CAST(EXTRACT(EPOCH FROM (expires_at - statement_timestamp())) * 1000 AS BIGINT) AS remaining_ms,
       expires_at > statement_timestamp() AS live
  FROM {table}
 WHERE family = :family AND hold_key = :key_hash AND owner <> ''
 ORDER BY owner
   FOR UPDATE
