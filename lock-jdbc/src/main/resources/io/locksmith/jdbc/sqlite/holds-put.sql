-- Writes the acquisition's own row: a grant (new, or the same grant again for a retried
-- attempt, its lease restarted) or a waiting writer's mark (token 0, twice the writer's lease).
-- A writer's mark becomes its grant in place: one row per owner.
--
-- :family    TEXT     'S' semaphore, 'R' read-write lock
-- :key_hash  TEXT     SHA-256 of the key, hex
-- :owner     TEXT     the acquisition's owner id
-- :kind      TEXT     'P', 'R', 'W', or 'M' for a mark
-- :permits   INTEGER  the permits asked for (semaphores); 0 otherwise
-- :token     INTEGER  the grant's token; 0 for a mark
-- :lease_ms  INTEGER  how long the row lasts, in milliseconds from now by the database's clock
INSERT INTO {table} (family, hold_key, owner, kind, hold_name, permits, token, expires_at)
VALUES (:family, :key_hash, :owner, :kind, NULL, :permits, :token, {now_ms} + 1 + :lease_ms)
ON CONFLICT (family, hold_key, owner) DO UPDATE
   SET kind = excluded.kind, permits = excluded.permits, token = excluded.token, expires_at = excluded.expires_at
