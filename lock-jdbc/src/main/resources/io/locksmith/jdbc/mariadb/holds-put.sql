-- Writes the acquisition's own row: a grant (new, or the same grant again for a retried
-- attempt, its lease restarted) or a waiting writer's mark (token 0, twice the writer's lease).
-- A writer's mark becomes its grant in place: one row per owner. Every assignment reads only
-- VALUES(), so the order of the SET list does not matter (sql_mode=SIMULTANEOUS_ASSIGNMENT).
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :owner     VARCHAR   the acquisition's owner id
-- :kind      CHAR(1)   'P', 'R', 'W', or 'M' for a mark
-- :permits   INT       the permits asked for (semaphores); 0 otherwise
-- :token     BIGINT    the grant's token; 0 for a mark
-- :lease_us  BIGINT    how long the row lasts, in microseconds from now by the database's clock
INSERT INTO {table} (family, hold_key, owner, kind, hold_name, permits, token, expires_at)
VALUES (:family, :key_hash, :owner, :kind, NULL, :permits, :token, UTC_TIMESTAMP(6) + INTERVAL :lease_us MICROSECOND)
ON DUPLICATE KEY UPDATE
    kind = VALUES(kind), permits = VALUES(permits), token = VALUES(token), expires_at = VALUES(expires_at)
