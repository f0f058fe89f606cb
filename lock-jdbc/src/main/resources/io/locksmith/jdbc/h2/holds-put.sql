-- Writes the acquisition's own row: a grant (new, or the same grant again for a retried
-- attempt, its lease restarted) or a waiting writer's mark (token 0, twice the writer's lease).
-- A writer's mark becomes its grant in place: one row per owner.
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :owner     VARCHAR   the acquisition's owner id
-- :kind      CHAR(1)   'P', 'R', 'W', or 'M' for a mark
-- :permits   INTEGER   the permits asked for (semaphores); 0 otherwise
-- :token     BIGINT    the grant's token; 0 for a mark
-- :lease_ms  BIGINT    how long the row lasts, in milliseconds from now by the database's clock
MERGE INTO {table} (family, hold_key, owner, kind, hold_name, permits, token, expires_at) KEY (family, hold_key, owner)
VALUES (CAST(:family AS CHAR(1)), CAST(:key_hash AS CHAR(64)), CAST(:owner AS VARCHAR(255)), CAST(:kind AS CHAR(1)),
        NULL, CAST(:permits AS INTEGER), CAST(:token AS BIGINT),
        DATEADD(MILLISECOND, CAST(:lease_ms AS BIGINT), CURRENT_TIMESTAMP))
