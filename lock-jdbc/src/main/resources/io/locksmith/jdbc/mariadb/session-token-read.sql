-- Reads the token session-token just took on this session. No bind parameters.
SELECT LAST_INSERT_ID()
