-- Makes the server check, while this session waits for a lock, that its client is still
-- connected, once a second: a waiter whose process died leaves the lock queue within a second
-- instead of when it reaches the head. Set once on a session before its first wait. No bind
-- parameters.
SET client_connection_check_interval = 1000
