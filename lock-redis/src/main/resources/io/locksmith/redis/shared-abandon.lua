-- Removes the permit or side an attempt with an unknown outcome may have taken, and a writer's
-- waiting mark, and wakes waiters if either was there.
--
-- KEYS[1]  the holders       locksmith:{TAG}:KEY:semaphore or :rwlock     sorted set: owner -> lease end
-- KEYS[2]  the grants        locksmith:{TAG}:KEY:semaphore-grants or :rwlock-grants  hash: "o:" .. owner -> "K:TOKEN"
-- KEYS[3]  the waiting marks locksmith:{TAG}:KEY:rwlock-writers; only for a read-write lock
-- ARGV[1]  owner             the given-up attempt's owner; its token is unknown to the caller
-- ARGV[2]  channel           locksmith:{TAG}:KEY:released, where waiters listen
--
-- Returns 1 if this owner held the key or had a mark on it, 0 if not. Never touches another owner's.
local owner = ARGV[1]
local channel = ARGV[2]
local removed = redis.call('zrem', KEYS[1], owner)
redis.call('hdel', KEYS[2], 'o:' .. owner)
if removed == 1 and redis.call('zcard', KEYS[1]) == 0 then
  redis.call('del', KEYS[1], KEYS[2])
end
if KEYS[3] then
  removed = removed + redis.call('zrem', KEYS[3], owner)
end
if removed > 0 then
  redis.pcall('publish', channel, '')
  return 1
end
return 0
