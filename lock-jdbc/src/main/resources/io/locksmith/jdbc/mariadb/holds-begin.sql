-- Starts an attempt's transaction on a connection left in autocommit mode (one round trip,
-- where turning autocommit off and on again would take two); COMMIT or ROLLBACK ends it.
-- No bind parameters.
START TRANSACTION
