-- Releases the lock this session holds.
--
-- :lock_name  TEXT  the GET_LOCK name
--
-- Returns one row: 1 when released, 0 when another session holds it, NULL when nobody does.
SELECT RELEASE_LOCK(:lock_name)
