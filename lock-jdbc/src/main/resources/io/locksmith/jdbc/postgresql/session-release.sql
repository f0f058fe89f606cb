-- Releases the advisory lock this session holds and wakes waiters (pg_notify is sent when the
-- statement commits, after the unlock).
--
-- :space     INTEGER   the lock table's advisory key space
-- :lock_id   INTEGER   the key's id in the names table
-- :channel   TEXT      the notification channel of the lock table
-- :key_hash  CHAR(64)  SHA-256 of the key, hex; the notification's payload
--
-- Returns one row: true when the session held the lock and now does not.
SELECT pg_advisory_unlock(:space, :lock_id) AS released, pg_notify(:channel, :key_hash) AS notified
