-- Extends every lease the caller still owns, in one call.
--
-- KEYS[i]        the lock key of lease i       locksmith:{KEY}:lock
-- ARGV[i]        expected value of lease i     "TOKEN:OWNER"
-- ARGV[n + i]    new lease of lease i          milliseconds, where n = #KEYS
--
-- Returns a list with, for each lease, 1 if it was the caller's and is extended, 0 if not.
local n = #KEYS
local renewed = {}
for i = 1, n do
  if redis.call('get', KEYS[i]) == ARGV[i] then
    redis.call('pexpire', KEYS[i], ARGV[n + i])
    renewed[i] = 1
  else
    renewed[i] = 0
  end
end
return renewed
