-- Subscribes the listening connection to the lock table's release channel. {channel} is
-- "locksmith_" and 16 hex digits of the table name's SHA-256. No bind parameters.
LISTEN {channel}
