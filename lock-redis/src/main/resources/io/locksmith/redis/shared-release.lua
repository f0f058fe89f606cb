-- Releases a semaphore's permit or a read-write lock's side if the caller still holds it, and
-- wakes waiters.
--
-- KEYS[1]  the holders       locksmith:{TAG}:KEY:semaphore or :rwlock     sorted set: owner -> lease end (server ms)
-- KEYS[2]  the grants        locksmith:{TAG}:KEY:semaphore-grants or :rwlock-grants  hash: "o:" .. owner -> "K:TOKEN"
-- ARGV[1]  owner             the grant's owner
-- ARGV[2]  token             the grant's fencing token
-- ARGV[3]  channel           locksmith:{TAG}:KEY:released, where waiters listen (the lock's channel)
--
-- Returns 1 if the grant was the caller's, its lease had not ended, and it is now released; 0 if not.
-- The wake-up is best effort (redis.pcall), as for locks (release.lua).
local owner = ARGV[1]
local token = ARGV[2]
local channel = ARGV[3]
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local own = redis.call('hget', KEYS[2], 'o:' .. owner)
local ends = redis.call('zscore', KEYS[1], owner)
if not own or not ends or tonumber(ends) <= now or string.sub(own, 3) ~= token then
  return 0
end
redis.call('zrem', KEYS[1], owner)
redis.call('hdel', KEYS[2], 'o:' .. owner)
if redis.call('zcard', KEYS[1]) == 0 then
  redis.call('del', KEYS[1], KEYS[2])
end
redis.pcall('publish', channel, '')
return 1
