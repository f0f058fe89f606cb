-- Extends every lease the caller still owns, in one call, when the batch holds leases of other
-- kinds than locks (renew.lua renews a batch of locks alone).
--
-- Lease i (n = #KEYS / 2 leases) has two keys and four arguments:
-- KEYS[2i - 1]   a lock: the lock key locksmith:{TAG}:KEY:lock;
--                a semaphore's permit or a read-write lock's side: the holders (sorted set)
-- KEYS[2i]       a lock: the lock key again (unused); otherwise the grants (hash)
-- ARGV[4i - 3]   "x" for a lock, "h" for a key of several holders
-- ARGV[4i - 2]   a lock: expected value "TOKEN:OWNER"; otherwise the owner
-- ARGV[4i - 1]   a lock: "" (unused); otherwise the grant's token
-- ARGV[4i]       new lease, milliseconds
--
-- Returns a list with, for each lease, 1 if it was the caller's and is extended, 0 if not. A
-- holder's lease counts as ended from its end by the server's clock (TIME), and a renewed one ends a
-- millisecond after now + its length, as in the acquire scripts.
local renewed = {}
local now
for i = 1, #KEYS / 2 do
  local key = KEYS[2 * i - 1]
  local kind = ARGV[4 * i - 3]
  local value = ARGV[4 * i - 2]
  local lease = tonumber(ARGV[4 * i])
  renewed[i] = 0
  if kind == 'x' then
    if redis.call('get', key) == value then
      redis.call('pexpire', key, lease)
      renewed[i] = 1
    end
  else
    if not now then
      local t = redis.call('time')
      now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    end
    local grants = KEYS[2 * i]
    local own = redis.call('hget', grants, 'o:' .. value)
    local ends = redis.call('zscore', key, value)
    if own and ends and tonumber(ends) > now and string.sub(own, 3) == ARGV[4 * i - 1] then
      redis.call('zadd', key, now + 1 + lease, value)
      local last = redis.call('zrange', key, -1, -1, 'withscores')
      redis.call('pexpireat', key, last[2])
      redis.call('pexpireat', grants, last[2])
      renewed[i] = 1
    end
  end
end
return renewed
