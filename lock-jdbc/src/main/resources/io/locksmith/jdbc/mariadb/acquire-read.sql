-- Second half of an attempt: reads whether acquire took the row. The row's token is this
-- grant's exactly when the row's owner is this acquisition's.
--
-- :key_hash  CHAR(64)  SHA-256 of the key, hex
-- :owner     VARCHAR   the acquisition's owner id
--
-- Returns token (NULL unless granted) and remaining_ms (the holder's remaining lease).
SELECT CASE WHEN owner = :owner THEN token END AS token,
       GREATEST(0, TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), expires_at)) DIV 1000 AS remaining_ms
  FROM {table}
 WHERE lock_key = :key_hash
