-- A grant's step in one statement: the header row (locked by holds-header) gets the new latest
-- token and the permits the key's holders now agree on, and the acquisition's own row is written
-- with that token (a writer's mark becomes its grant in place).
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :owner     TEXT      the acquisition's owner id
-- :kind      CHAR(1)   'P', 'R' or 'W'
-- :permits   INTEGER   the semaphore's permits; 0 for a read-write lock
-- :token     BIGINT    the grant's token: the header's plus 1
-- :lease_ms  BIGINT    the lease in milliseconds from now by the database's clock
WITH bumped AS (
    UPDATE {table} SET token = :token, permits = :permits
     WHERE family = :family AND hold_key = :key_hash AND owner = ''
)
INSERT INTO {table} AS h (family, hold_key, owner, kind, hold_name, permits, token, expires_at)
VALUES (:family, :key_hash, :owner, :kind, NULL, :permits, :token,
        statement_timestamp() + make_interval(secs => CAST(:lease_ms AS DOUBLE PRECISION) / 1000))
ON CONFLICT (family, hold_key, owner) DO UPDATE
   SET kind = EXCLUDED.kind, permits = EXCLUDED.permits, token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
