-- Gives a session that waited for locks back its server's connection check before the
-- connection leaves the client. No bind parameters.
RESET client_connection_check_interval
