-- Releases a lock if the caller still owns it, and wakes waiters.
--
-- KEYS[1]  the lock key      locksmith:{KEY}:lock
-- ARGV[1]  expected value    "TOKEN:OWNER" of the caller's grant
-- ARGV[2]  channel           locksmith:{KEY}:released, where waiters listen
--
-- Returns 1 if the lock was the caller's and is now free, 0 if it was not the caller's.
--
-- The wake-up is best effort (redis.pcall): an ACL user without rights on the channel (Redis 7's
-- default for new users) gets an error from PUBLISH after the DEL has already freed the lock, and
-- that must not turn a done release into a failed one. Its waiters back off instead.
local expected = ARGV[1]
local channel = ARGV[2]
if redis.call('get', KEYS[1]) == expected then
  redis.call('del', KEYS[1])
  redis.pcall('publish', channel, '')
  return 1
end
return 0
