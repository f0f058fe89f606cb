-- Tries the lock on this session without waiting.
--
-- :lock_name  TEXT  the GET_LOCK name: the table's space and the key's id (under 64 characters)
--
-- Returns one row: 1 when granted, 0 when another session holds it, NULL on an error.
SELECT GET_LOCK(:lock_name, 0)
