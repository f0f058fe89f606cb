-- Waits in the server's own lock queue for the advisory lock on this session, for at most
-- :wait_ms (lock_timeout, set for this statement alone), and once it is granted takes the next
-- fencing token and sets the session's idle limit to the lease, in the same round trip. Waiters
-- are granted in the order they queued, at the release itself. Each OFFSET 0 subquery runs
-- first and once: the time limit, then the wait, then the token.
--
-- :space     INTEGER  the lock table's advisory key space (from the table's name)
-- :lock_id   INTEGER  the key's id in the names table
-- :idle_ms   TEXT     the lease in whole milliseconds, at least 1
-- :wait_ms   TEXT     the longest wait, in whole milliseconds
--
-- Returns one row with the new fencing token; fails with SQLSTATE 55P03 when the wait ran out.
SELECT nextval('{table}_tokens') AS token,
       set_config('idle_session_timeout', :idle_ms, false) AS idle_limit
  FROM (SELECT pg_advisory_lock(:space, :lock_id) AS waited
          FROM (SELECT set_config('lock_timeout', :wait_ms, true) AS wait_limit OFFSET 0) AS limited
        OFFSET 0) AS granted
