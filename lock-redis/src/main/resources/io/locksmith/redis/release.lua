-- Releases a lock if the caller still owns it, and names the waiter it goes to next.
--
-- KEYS[1]  the lock key      locksmith:{TAG}:KEY:lock
-- KEYS[2]  the queue         locksmith:{TAG}:KEY:queue           sorted set: waiting owner -> arrival (server µs)
-- KEYS[3]  the presence      locksmith:{TAG}:KEY:queue-presence  sorted set: waiting owner -> presence end (server ms)
-- ARGV[1]  expected value    "TOKEN:OWNER" of the caller's grant
-- ARGV[2]  channel           locksmith:{TAG}:KEY:released, where waiters listen
--
-- Returns 1 if the lock was the caller's and is now free, 0 if it was not the caller's.
--
-- The message on the channel is the owner of the first live waiter (dead ones are pruned, as in
-- acquire.lua), or empty when nobody waits. The wake-up is best effort (redis.pcall): an ACL user
-- without rights on the channel (Redis 7's default for new users) gets an error from PUBLISH
-- after the DEL has already freed the lock, and that must not turn a done release into a failed
-- one. Its waiters poll instead, and the queue still gives the key to the first of them.
local expected = ARGV[1]
local channel = ARGV[2]
if redis.call('get', KEYS[1]) ~= expected then
  return 0
end
redis.call('del', KEYS[1])
local next = ''
if redis.call('exists', KEYS[2]) == 1 then
  local t = redis.call('time')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  for _, o in ipairs(redis.call('zrangebyscore', KEYS[3], '-inf', now)) do
    redis.call('zrem', KEYS[2], o)
  end
  redis.call('zremrangebyscore', KEYS[3], '-inf', now)
  next = redis.call('zrange', KEYS[2], 0, 0)[1] or ''
end
redis.pcall('publish', channel, next)
return 1
