-- Gives a session back its server's idle limit before the connection leaves the client (closed,
-- or handed back to an application's pool). No bind parameters.
SET SESSION wait_timeout = @@GLOBAL.wait_timeout
