-- Takes the key's next fencing token, while this session holds its lock: the counter row's new
-- value, handed back by LAST_INSERT_ID (read with session-token-read on the same session).
--
-- :lock_id  BIGINT  the key's id in the names table
UPDATE {table}_names SET token = LAST_INSERT_ID(token + 1) WHERE id = :lock_id
