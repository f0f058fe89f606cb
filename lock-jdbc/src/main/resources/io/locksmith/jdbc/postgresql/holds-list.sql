-- Lists a key's holders for operations tools, in grant order; changes nothing. Marks and rows
-- whose lease ran out by the database's clock are no holders.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
--
-- Returns owner, kind, token and remaining_ms per holder.
SELECT owner, kind, token,
       CAST(GREATEST(0, EXTRACT(EPOCH FROM (expires_at - now())) * 1000) AS BIGINT) AS remaining_ms
  FROM {table}
 WHERE family = :family AND hold_key = :key_hash AND owner <> '' AND kind <> 'M' AND expires_at > now()
 ORDER BY token
