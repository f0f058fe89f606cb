-- The names table of session mode (MariaDB, MySQL): gives every lock key a number of its own,
-- from which the GET_LOCK name is made, and keeps the key's fencing counter. A hash alone could
-- give two keys one lock; an id given once per key cannot. The id never changes, so clients keep
-- it once read. No bind parameters.
CREATE TABLE IF NOT EXISTS {table}_names (
    id        BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,                  -- in the GET_LOCK name
    lock_key  CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL UNIQUE, -- SHA-256 of the key, hex
    lock_name TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,       -- the key itself
    token     BIGINT NOT NULL DEFAULT 0                                     -- the latest grant's fencing token
) ENGINE = InnoDB
