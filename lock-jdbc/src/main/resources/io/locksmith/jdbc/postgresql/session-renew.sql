-- Renews a held lock: a round trip on the session that holds it, which restarts the server's idle
-- timer, with the idle limit set to the lease asked for (extend may change it). While the session
-- lives the lock is its own: only this session can unlock it.
--
-- :idle_ms   TEXT     the lease in whole milliseconds, at least 1
--
-- Returns one row.
SELECT set_config('idle_session_timeout', :idle_ms, false)
