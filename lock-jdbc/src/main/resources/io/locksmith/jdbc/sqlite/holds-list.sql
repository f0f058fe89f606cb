-- Lists a key's holders for operations tools, in grant order; changes nothing. Marks and rows
-- whose lease ran out by the database's clock are no holders.
--
-- :family    TEXT  'S' semaphore, 'R' read-write lock
-- :key_hash  TEXT  SHA-256 of the key, hex
--
-- Returns owner, kind, token and remaining_ms per holder.
SELECT owner, kind, token, expires_at - {now_ms} AS remaining_ms
  FROM {table}
 WHERE family = :family AND hold_key = :key_hash AND owner <> '' AND kind <> 'M' AND expires_at > {now_ms}
 ORDER BY token
