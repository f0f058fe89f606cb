-- Reads the holders of a semaphore or a read-write lock, changing nothing.
--
-- KEYS[1]  the holders       locksmith:{TAG}:KEY:semaphore or :rwlock     sorted set: owner -> lease end
-- KEYS[2]  the grants        locksmith:{TAG}:KEY:semaphore-grants or :rwlock-grants  hash: "o:" .. owner -> "K:TOKEN"
--
-- Returns a flat list: owner, "K:TOKEN" (K is P, R or W), remaining lease in milliseconds, for
-- each holder whose lease has not ended by the server's clock.
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local holders = redis.call('zrangebyscore', KEYS[1], '(' .. now, '+inf', 'withscores')
local found = {}
for i = 1, #holders, 2 do
  local grant = redis.call('hget', KEYS[2], 'o:' .. holders[i])
  if grant then
    found[#found + 1] = holders[i]
    found[#found + 1] = grant
    found[#found + 1] = tostring(tonumber(holders[i + 1]) - now)
  end
end
return found
