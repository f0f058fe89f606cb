-- First step of an attempt's transaction: creates the key's header row if it has none;
-- holds-header-read then locks and reads it. Two sessions creating one header at once: one
-- fails with a duplicate key, which the attempt ignores (the row is there).
--
-- :family    CHAR(1)   'S' semaphore, 'R' read-write lock
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :key       VARCHAR   the key itself
MERGE INTO {table} AS h
USING (VALUES (CAST(:family AS CHAR(1)), CAST(:key_hash AS CHAR(64)), CAST(:key AS VARCHAR(8000))))
      AS r (family, hold_key, hold_name)
   ON h.family = r.family AND h.hold_key = r.hold_key AND h.owner = ''
WHEN NOT MATCHED THEN
    INSERT (family, hold_key, owner, kind, hold_name, permits, token, expires_at)
    VALUES (r.family, r.hold_key, '', 'H', r.hold_name, 0, 0, CURRENT_TIMESTAMP)
