-- Gives a session back its server's idle limit before the connection leaves the client (closed,
-- or handed back to an application's pool). No bind parameters.
RESET idle_session_timeout
