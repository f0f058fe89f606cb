-- Tries the advisory lock on this session without waiting and, when it is granted, in the same
-- round trip takes the next fencing token and sets the session's idle limit to the lease, so that
-- the server ends a silent session (and the lock with it) one lease after its last statement.
-- OFFSET 0 keeps the attempt in its own subquery: it runs exactly once.
--
-- :space     INTEGER  the lock table's advisory key space (from the table's name)
-- :lock_id   INTEGER  the key's id in the names table
-- :idle_ms   TEXT     the lease in whole milliseconds, at least 1
--
-- Returns one row: token set (the new fencing token) when granted, NULL when another session holds it.
SELECT CASE WHEN got THEN nextval('{table}_tokens') END AS token,
       CASE WHEN got THEN set_config('idle_session_timeout', :idle_ms, false) END AS idle_limit
  FROM (SELECT pg_try_advisory_lock(:space, :lock_id) AS got OFFSET 0) AS attempt
