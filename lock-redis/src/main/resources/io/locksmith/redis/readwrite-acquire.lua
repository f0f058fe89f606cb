-- Takes a read-write lock's read or write side if it is free for it, with a new fencing token;
-- or recognises the caller's own grant. A writer that finds the key held leaves a waiting mark,
-- and no new reader is granted while another owner's mark lasts (writers are not starved).
--
-- KEYS[1]  the holders       locksmith:{TAG}:KEY:rwlock          sorted set: owner -> lease end (server ms)
-- KEYS[2]  the grants        locksmith:{TAG}:KEY:rwlock-grants   hash: "o:" .. owner -> "R:TOKEN" or "W:TOKEN"
-- KEYS[3]  the waiting marks locksmith:{TAG}:KEY:rwlock-writers  sorted set: writer's owner -> mark end (server ms)
-- KEYS[4]  the fence counter locksmith:{TAG}:KEY:rwlock-fence    never expires; one counter for both sides
-- ARGV[1]  owner             unique to the acquisition; every retry of one wait sends the same
-- ARGV[2]  lease             milliseconds
-- ARGV[3]  side              "R" to read, "W" to write
--
-- Returns {1, token} when granted; {0, ms} when not, ms being the remaining lease of the holder
-- whose lease ends first, or of the waiting mark that keeps a reader out when nobody holds.
--
-- Time is the server's (TIME), in whole milliseconds rounded down, so a lease ends a millisecond
-- after now + its length, as in semaphore-acquire.lua. Ended holders and marks are removed first. A writer's mark lasts
-- twice its lease from its latest attempt and is removed when it is granted (or by abandon).
-- The keys expire when the last lease or mark ends.
local owner = ARGV[1]
local lease = tonumber(ARGV[2])
local side = ARGV[3]
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local ended = redis.call('zrangebyscore', KEYS[1], '-inf', now)
for _, o in ipairs(ended) do
  redis.call('hdel', KEYS[2], 'o:' .. o)
end
if #ended > 0 then
  redis.call('zremrangebyscore', KEYS[1], '-inf', now)
end
redis.call('zremrangebyscore', KEYS[3], '-inf', now)

local function keep(key)
  local last = redis.call('zrange', key, -1, -1, 'withscores')
  if #last > 0 then
    redis.call('pexpireat', key, last[2])
    return last[2]
  end
end

local function grant(token)
  redis.call('zadd', KEYS[1], now + 1 + lease, owner)
  local last = keep(KEYS[1])
  redis.call('pexpireat', KEYS[2], last)
  if redis.call('zrem', KEYS[3], owner) == 1 then
    keep(KEYS[3])
  end
  return {1, token}
end

local function firstEnd(key)
  local first = redis.call('zrange', key, 0, 0, 'withscores')
  return math.max(0, tonumber(first[2]) - now)
end

local held = redis.call('zcard', KEYS[1])
if held > 0 then
  local own = redis.call('hget', KEYS[2], 'o:' .. owner)
  if own and redis.call('zscore', KEYS[1], owner) then
    return grant(tonumber(string.sub(own, 3)))
  end
end

if side == 'W' then
  if held > 0 then
    redis.call('zadd', KEYS[3], now + 2 * lease, owner)
    keep(KEYS[3])
    return {0, firstEnd(KEYS[1])}
  end
else
  if held > 0 then
    local first = redis.call('zrange', KEYS[1], 0, 0)
    if string.sub(redis.call('hget', KEYS[2], 'o:' .. first[1]) or 'R', 1, 1) == 'W' then
      return {0, firstEnd(KEYS[1])}
    end
  end
  local marks = redis.call('zcard', KEYS[3])
  if marks > 0 and not (marks == 1 and redis.call('zscore', KEYS[3], owner)) then
    if held > 0 then
      return {0, firstEnd(KEYS[1])}
    end
    return {0, firstEnd(KEYS[3])}
  end
end
local token = redis.call('incr', KEYS[4])
redis.call('hset', KEYS[2], 'o:' .. owner, side .. ':' .. token)
return grant(token)
