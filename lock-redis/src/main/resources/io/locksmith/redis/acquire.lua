-- Takes a lock if it is free, with a new fencing token; or recognises the caller's own grant.
--
-- KEYS[1]  the lock key      locksmith:{KEY}:lock   holds "TOKEN:OWNER" with a PX expiry
-- KEYS[2]  the fence counter locksmith:{KEY}:fence  same hash slot (the {KEY} hash tag); never expires
-- ARGV[1]  owner             unique to the acquisition; every retry of one wait sends the same
-- ARGV[2]  lease             milliseconds
--
-- Returns the fencing token (> 0) when granted; when the lock is held by another owner, -1 minus
-- the holder's remaining lease in milliseconds (<= -1), so that waiters know how long it may last.
--
-- If the key already holds this owner, an earlier attempt of the same wait ran although its reply
-- was lost (it timed out on the client): that is the caller's grant, under the token it was
-- granted with, and its lease restarts now. Refusing it would leave the waiter locked out by
-- itself for a whole lease.
local owner = ARGV[1]
local lease = ARGV[2]
local value = redis.call('get', KEYS[1])
if value then
  local colon = string.find(value, ':', 1, true)
  if colon and string.sub(value, colon + 1) == owner then
    redis.call('pexpire', KEYS[1], lease)
    return tonumber(string.sub(value, 1, colon - 1))
  end
  local ttl = redis.call('pttl', KEYS[1])
  if ttl < 0 then
    ttl = 0
  end
  return -1 - ttl
end
local token = redis.call('incr', KEYS[2])
redis.call('set', KEYS[1], token .. ':' .. owner, 'px', lease)
return token
