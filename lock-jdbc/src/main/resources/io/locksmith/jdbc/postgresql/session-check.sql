-- Checks at open that the server has the idle limit session mode keeps leases with (PostgreSQL
-- 14 or newer). No bind parameters.
SHOW idle_session_timeout
