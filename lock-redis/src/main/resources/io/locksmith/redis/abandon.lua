-- Removes the lock an attempt with an unknown outcome may have taken, if it did, and wakes waiters.
--
-- KEYS[1]  the lock key      locksmith:{KEY}:lock   holds "TOKEN:OWNER"
-- ARGV[1]  owner             the given-up attempt's owner; its token is unknown to the caller
-- ARGV[2]  channel           locksmith:{KEY}:released, where waiters listen
--
-- Returns 1 if the key held this owner and is now free, 0 if it held another owner or nothing.
-- The wake-up is best effort (redis.pcall): a user without rights on the channel still abandons.
local owner = ARGV[1]
local channel = ARGV[2]
local value = redis.call('get', KEYS[1])
if not value then
  return 0
end
local colon = string.find(value, ':', 1, true)
if colon and string.sub(value, colon + 1) == owner then
  redis.call('del', KEYS[1])
  redis.pcall('publish', channel, '')
  return 1
end
return 0
