-- Waits in the server's own lock queue for the lock on this session, for at most :wait_s
-- seconds. Waiters are granted in the order they queued, at the release itself. The fencing token
-- is taken after the grant, by session-token and session-token-read on the same session.
--
-- :lock_name  TEXT     the GET_LOCK name: the table's space and the key's id (under 64 characters)
-- :wait_s     INTEGER  the longest wait, in whole seconds, at least 1
--
-- Returns one row: 1 when granted, 0 when the wait ran out, NULL when it was cut short (the
-- statement was killed).
SELECT GET_LOCK(:lock_name, :wait_s)
