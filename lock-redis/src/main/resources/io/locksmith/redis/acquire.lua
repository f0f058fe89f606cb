-- Takes a lock if it is free, with a new fencing token.
--
-- KEYS[1]  the lock key      locksmith:{KEY}:lock   holds "TOKEN:OWNER" with a PX expiry
-- KEYS[2]  the fence counter locksmith:{KEY}:fence  same hash slot (the {KEY} hash tag); never expires
-- ARGV[1]  owner             unique to the acquisition
-- ARGV[2]  lease             milliseconds
--
-- Returns the new fencing token (> 0) when granted; when the lock is held, -1 minus the
-- holder's remaining lease in milliseconds (<= -1), so that waiters know how long it may last.
local owner = ARGV[1]
local lease = ARGV[2]
local ttl = redis.call('pttl', KEYS[1])
if ttl ~= -2 then
  if ttl < 0 then
    ttl = 0
  end
  return -1 - ttl
end
local token = redis.call('incr', KEYS[2])
redis.call('set', KEYS[1], token .. ':' .. owner, 'px', lease)
return token
