-- The names table of session mode (PostgreSQL): gives every lock key a number of its own, which
-- is the advisory lock's second key. A hash alone could give two keys one lock; an id given once
-- per key cannot. The id never changes, so clients keep it once read. No bind parameters.
CREATE TABLE IF NOT EXISTS {table}_names (
    lock_key  CHAR(64) NOT NULL PRIMARY KEY, -- SHA-256 of the key, lower-case hex
    lock_name TEXT     NOT NULL,             -- the key itself (prefix and name)
    id        SERIAL   NOT NULL UNIQUE       -- the advisory lock's second key
)
