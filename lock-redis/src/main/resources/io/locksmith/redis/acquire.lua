-- Takes a lock if it is free and no live waiter is ahead of the caller, with a new fencing token;
-- or recognises the caller's own grant. A waiting caller that is refused takes (or keeps) its
-- place in the lock's queue of waiters.
--
-- KEYS[1]  the lock key      locksmith:{TAG}:KEY:lock            holds "TOKEN:OWNER" with a PX expiry
-- KEYS[2]  the fence counter locksmith:{TAG}:KEY:fence           never expires
-- KEYS[3]  the queue         locksmith:{TAG}:KEY:queue           sorted set: waiting owner -> arrival (server µs)
-- KEYS[4]  the presence      locksmith:{TAG}:KEY:queue-presence  sorted set: waiting owner -> presence end (server ms)
-- KEYS[5]  the wake channels locksmith:{TAG}:KEY:queue-wake      hash: waiting owner -> "CHANNEL|HANDOFF", "CHANNEL" or empty
-- ARGV[1]  owner             unique to the acquisition; every retry of one wait sends the same
-- ARGV[2]  lease             milliseconds
-- ARGV[3]  waits             "1" for an attempt of a wait (it may queue), "0" for a one-shot attempt
-- ARGV[4]  presence          milliseconds a waiter's place lasts from its latest attempt
-- ARGV[5]  channel           locksmith:{TAG}:KEY:released, where waiters listen
-- ARGV[6]  wake channel      the caller's client's own channel for wake-ups, or empty if it has none
-- ARGV[7]  key               the lock's key, as a wake-up names it
-- ARGV[8]  handoff           milliseconds a key that a release grants this waiter lasts until its
--                            client renews it (at most the presence), or "0" if a release must
--                            not grant it (the client waits for replicas after each grant)
--
-- Returns {TOKEN} (TOKEN > 0) when granted; when refused, {-1 minus a time in milliseconds, FENCE}:
-- the time is the holder's remaining lease, or, if the key is free but owed to an earlier waiter,
-- the time until that waiter's presence ends, at most 1000, so that the caller asks again around
-- when a dead waiter would be passed; FENCE is the last token the key gave (0 if none), so that a
-- client can tell a release's grant it hears of later from one it was refused after.
--
-- All five keys share one Cluster slot (the {TAG} hash tag). The queue, the presence and the wake
-- channels hold the same owners, so they exist together (during a slot migration a script whose
-- keys are split between two nodes is refused with TRYAGAIN). A waiter whose presence ended
-- stopped asking (its client died or lost its connection) and is pruned before the head is
-- chosen. A grant removes its owner from all three, and all three expire when the last presence
-- ends, so a queue of dead waiters leaves nothing behind. A waiter whose client listens on a wake
-- channel of its own is woken there (see release.lua), so that a release wakes one client, not
-- every client waiting for the key. The wake hash holds "CHANNEL|HANDOFF" for such a waiter: a
-- release then grants it the key itself, for HANDOFF ms, and tells its client the token.
--
-- If the key already holds this owner, an earlier attempt of the same wait ran although its reply
-- was lost (it timed out on the client): that is the caller's grant, under the token it was
-- granted with, and its lease restarts now. Refusing it would leave the waiter locked out by
-- itself for a whole lease.
local owner = ARGV[1]
local lease = ARGV[2]
local waits = ARGV[3] == '1'
local presence = tonumber(ARGV[4])
local channel = ARGV[5]
local wakeChannel = ARGV[6]
local key = ARGV[7]
local handoff = ARGV[8]

local function grant()
  local token = redis.call('incr', KEYS[2])
  redis.call('set', KEYS[1], token .. ':' .. owner, 'px', lease)
  return {token}
end

local value = redis.call('get', KEYS[1])
if value then
  local colon = string.find(value, ':', 1, true)
  if colon and string.sub(value, colon + 1) == owner then
    redis.call('pexpire', KEYS[1], lease)
    return {tonumber(string.sub(value, 1, colon - 1))}
  end
end
if not value and redis.call('exists', KEYS[3]) == 0 then
  return grant() -- nobody waits: the common, uncontended case reads no clock
end
local function held()
  local ttl = redis.call('pttl', KEYS[1])
  if ttl < 0 then
    ttl = 0
  end
  return {-1 - ttl, tonumber(redis.call('get', KEYS[2]) or '0')}
end
if value and not waits then
  return held()
end

local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local dead = redis.call('zrangebyscore', KEYS[4], '-inf', now)
for _, o in ipairs(dead) do
  redis.call('zrem', KEYS[3], o)
  redis.call('hdel', KEYS[5], o)
end
if #dead > 0 then
  redis.call('zremrangebyscore', KEYS[4], '-inf', now)
end
local head = redis.call('zrange', KEYS[3], 0, 0)[1]

if not value then
  if not head or head == owner then
    if head then
      redis.call('zrem', KEYS[3], owner)
      redis.call('zrem', KEYS[4], owner)
      redis.call('hdel', KEYS[5], owner)
    end
    return grant()
  end
  if #dead > 0 then
    -- a dead waiter was passed: wake the one the key is owed to now
    local to = redis.call('hget', KEYS[5], head)
    to = to and string.match(to, '^[^|]*')
    if to and to ~= '' then
      redis.pcall('publish', to, #head .. ':' .. head .. key)
    else
      redis.pcall('publish', channel, head)
    end
  end
end

if waits then
  redis.call('zadd', KEYS[3], 'NX', tonumber(t[1]) * 1000000 + tonumber(t[2]), owner)
  redis.call('zadd', KEYS[4], now + presence, owner)
  local wake = wakeChannel
  if wake ~= '' and handoff ~= '0' then
    wake = wake .. '|' .. handoff
  end
  redis.call('hset', KEYS[5], owner, wake) -- even empty: the hash exists while the queue does
  local last = redis.call('zrange', KEYS[4], -1, -1, 'withscores')
  redis.call('pexpireat', KEYS[3], last[2])
  redis.call('pexpireat', KEYS[4], last[2])
  redis.call('pexpireat', KEYS[5], last[2])
end

if value then
  return held()
end
local ends = tonumber(redis.call('zscore', KEYS[4], head))
return {-1 - math.min(1000, math.max(0, ends - now)), tonumber(redis.call('get', KEYS[2]) or '0')}
