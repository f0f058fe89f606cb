-- Sets the session's idle limit to the lease, so that the server ends a silent session (and its
-- lock with it) one lease after its last statement; also a renewal's round trip, which restarts
-- the idle timer. While the session lives the lock is its own: only this session can release it.
--
-- :idle_s    INTEGER  the lease in whole seconds, rounded up, at least 1
SET SESSION wait_timeout = :idle_s
