-- Gives up an ended wait or an attempt with an unknown outcome: removes the lock if the attempt's
-- owner holds it, and the owner's place in the queue; names the next waiter if the key is free
-- and was owed to this owner (or was its own).
--
-- KEYS[1]  the lock key      locksmith:{TAG}:KEY:lock            holds "TOKEN:OWNER"
-- KEYS[2]  the queue         locksmith:{TAG}:KEY:queue           sorted set: waiting owner -> arrival (server µs)
-- KEYS[3]  the presence      locksmith:{TAG}:KEY:queue-presence  sorted set: waiting owner -> presence end (server ms)
-- KEYS[4]  the wake channels locksmith:{TAG}:KEY:queue-wake      hash: waiting owner -> "CHANNEL|HANDOFF", "CHANNEL" or empty
-- KEYS[5]  the fence counter locksmith:{TAG}:KEY:fence           not used here: the caller names release.lua's keys
-- ARGV[1]  owner             the given-up attempt's owner; its token is unknown to the caller
-- ARGV[2]  channel           locksmith:{TAG}:KEY:released, where waiters listen
-- ARGV[3]  key               the lock's key, as a wake-up names it
--
-- Returns 1 if the key held this owner and is now free, 0 if it held another owner or nothing.
-- Never touches another owner's lock or place. The message is the next live waiter's owner, or
-- empty when nobody waits, on the next waiter's wake channel or the lock's, as in release.lua; the wake-up is best effort (redis.pcall).
-- Called with KEYS[1] alone while the slot migrates, as release.lua may be: the owner's place then
-- stays in the queue until its presence ends.
local owner = ARGV[1]
local channel = ARGV[2]
local freed = 0
local value = redis.call('get', KEYS[1])
if value then
  local colon = string.find(value, ':', 1, true)
  if colon and string.sub(value, colon + 1) == owner then
    redis.call('del', KEYS[1])
    freed = 1
  end
end
local wasHead = KEYS[2] and redis.call('zrange', KEYS[2], 0, 0)[1] == owner
if KEYS[2] and (wasHead or redis.call('zscore', KEYS[2], owner)) then
  redis.call('zrem', KEYS[2], owner)
  redis.call('zrem', KEYS[3], owner)
  redis.call('hdel', KEYS[4], owner)
end
if freed == 1 or (wasHead and not value) then
  local next = ''
  if KEYS[2] and redis.call('exists', KEYS[2]) == 1 then
    local t = redis.call('time')
    local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    for _, o in ipairs(redis.call('zrangebyscore', KEYS[3], '-inf', now)) do
      redis.call('zrem', KEYS[2], o)
      redis.call('hdel', KEYS[4], o)
    end
    redis.call('zremrangebyscore', KEYS[3], '-inf', now)
    next = redis.call('zrange', KEYS[2], 0, 0)[1] or ''
  end
  local to = next ~= '' and redis.call('hget', KEYS[4], next)
  to = to and string.match(to, '^[^|]*') -- "CHANNEL|HANDOFF": only woken here, not granted
  if to and to ~= '' then
    redis.pcall('publish', to, #next .. ':' .. next .. ARGV[3])
  else
    redis.pcall('publish', channel, next)
  end
end
return freed
