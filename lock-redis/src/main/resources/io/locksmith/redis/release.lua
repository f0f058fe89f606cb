-- Releases a lock if the caller still owns it, and grants it to, or names, the waiter it goes to
-- next.
--
-- KEYS[1]  the lock key      locksmith:{TAG}:KEY:lock
-- KEYS[2]  the queue         locksmith:{TAG}:KEY:queue           sorted set: waiting owner -> arrival (server µs)
-- KEYS[3]  the presence      locksmith:{TAG}:KEY:queue-presence  sorted set: waiting owner -> presence end (server ms)
-- KEYS[4]  the wake channels locksmith:{TAG}:KEY:queue-wake      hash: waiting owner -> "CHANNEL|HANDOFF", "CHANNEL" or empty
-- KEYS[5]  the fence counter locksmith:{TAG}:KEY:fence
-- ARGV[1]  expected value    "TOKEN:OWNER" of the caller's grant
-- ARGV[2]  channel           locksmith:{TAG}:KEY:released, where waiters listen
-- ARGV[3]  key               the lock's key, as a wake-up names it
--
-- Returns 1 if the lock was the caller's and is now released (free, or granted to the next
-- waiter), 0 if it was not the caller's.
--
-- Called with KEYS[1] alone while the lock's slot migrates and its queue's keys are not all where
-- the lock key is (Redis refused the call with all five with TRYAGAIN: nobody waits, or a queue
-- whose waiters stopped asking expired). The release then frees the lock without reading the
-- queue and wakes every waiter on the lock's channel; the queue still gives the key to its head.
--
-- The first live waiter (dead ones are pruned, as in acquire.lua) is granted the key here if
-- acquire.lua recorded a wake channel and a handoff time for it ("CHANNEL|HANDOFF"). The key then
-- holds "TOKEN:OWNER" for HANDOFF ms (at most the waiter's presence, so that a waiter that died
-- just before costs the next one no more than its presence), the waiter leaves the queue, and its
-- client's wake channel carries "=TOKEN:LENGTH:OWNERKEY" (LENGTH is the owner's length in bytes).
-- The client hands the grant to the waiter without another round trip and renews it to its full
-- lease; a client that missed the message finds the grant on the waiter's next attempt.
--
-- A waiter with a wake channel and no handoff time is woken there with "LENGTH:OWNERKEY": only
-- that client hears it. Otherwise the lock's channel carries the waiter's owner, or an empty
-- message when nobody waits (every client waiting for the key hears it). The wake-up is best
-- effort (redis.pcall): an ACL user without rights on the channel (Redis 7's default for new
-- users) gets an error from PUBLISH after the DEL has already freed the lock, and that must not
-- turn a done release into a failed one. Its waiters poll instead, and the queue still gives the
-- key to the first of them.
local expected = ARGV[1]
local channel = ARGV[2]
if redis.call('get', KEYS[1]) ~= expected then
  return 0
end
redis.call('del', KEYS[1])
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
local handoff = 0
if to then
  local bar = string.find(to, '|', 1, true)
  if bar then
    handoff = tonumber(string.sub(to, bar + 1))
    to = string.sub(to, 1, bar - 1)
  end
end
if to and to ~= '' and handoff > 0 and KEYS[5] then
  local token = redis.call('incr', KEYS[5])
  redis.call('set', KEYS[1], token .. ':' .. next, 'px', handoff)
  redis.call('zrem', KEYS[2], next)
  redis.call('zrem', KEYS[3], next)
  redis.call('hdel', KEYS[4], next)
  redis.pcall('publish', to, '=' .. token .. ':' .. #next .. ':' .. next .. ARGV[3])
elseif to and to ~= '' then
  redis.pcall('publish', to, #next .. ':' .. next .. ARGV[3])
else
  redis.pcall('publish', channel, next)
end
return 1
