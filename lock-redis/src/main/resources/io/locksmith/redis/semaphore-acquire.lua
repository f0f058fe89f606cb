-- Takes one permit of a semaphore if fewer than its permits are held, with a new fencing token;
-- or recognises the caller's own grant.
--
-- KEYS[1]  the holders       locksmith:{TAG}:KEY:semaphore         sorted set: owner -> lease end (server ms)
-- KEYS[2]  the grants        locksmith:{TAG}:KEY:semaphore-grants  hash: "o:" .. owner -> "P:TOKEN", and
--                                                                  "n" -> the permits the holders agreed on
-- KEYS[3]  the fence counter locksmith:{TAG}:KEY:semaphore-fence   never expires
-- ARGV[1]  owner             unique to the acquisition; every retry of one wait sends the same
-- ARGV[2]  lease             milliseconds
-- ARGV[3]  permits           how many holders the key admits, as this acquisition says
--
-- Returns {1, token} when granted; {0, ms} when all permits are held by others, ms being the
-- remaining lease of the holder whose lease ends first; {2, permits} when the key has holders
-- that agreed on another number of permits (nothing is changed).
--
-- Time is the server's (TIME), so leases do not depend on the clients' clocks. It is read in whole
-- milliseconds, rounded down, so a lease ends a millisecond after now + its length: never before
-- its whole length has passed. Holders whose lease has ended are removed first. If the caller
-- already holds a permit, an earlier attempt of the same wait ran although its reply was lost:
-- that is its grant, under its token, lease restarted.
-- Both keys expire when the last lease ends, so an abandoned semaphore leaves nothing behind.
local owner = ARGV[1]
local lease = tonumber(ARGV[2])
local permits = tonumber(ARGV[3])
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local ended = redis.call('zrangebyscore', KEYS[1], '-inf', now)
for _, o in ipairs(ended) do
  redis.call('hdel', KEYS[2], 'o:' .. o)
end
if #ended > 0 then
  redis.call('zremrangebyscore', KEYS[1], '-inf', now)
end

local function keep()
  local last = redis.call('zrange', KEYS[1], -1, -1, 'withscores')
  redis.call('pexpireat', KEYS[1], last[2])
  redis.call('pexpireat', KEYS[2], last[2])
end

local held = redis.call('zcard', KEYS[1])
if held > 0 then
  local own = redis.call('hget', KEYS[2], 'o:' .. owner)
  if own and redis.call('zscore', KEYS[1], owner) then
    redis.call('zadd', KEYS[1], now + 1 + lease, owner)
    keep()
    return {1, tonumber(string.sub(own, 3))}
  end
  local agreed = tonumber(redis.call('hget', KEYS[2], 'n'))
  if agreed and agreed ~= permits then
    return {2, agreed}
  end
  if held >= permits then
    local first = redis.call('zrange', KEYS[1], 0, 0, 'withscores')
    return {0, math.max(0, tonumber(first[2]) - now)}
  end
else
  redis.call('del', KEYS[2])
end
local token = redis.call('incr', KEYS[3])
redis.call('zadd', KEYS[1], now + 1 + lease, owner)
redis.call('hset', KEYS[2], 'o:' .. owner, 'P:' .. token, 'n', permits)
keep()
return {1, token}
