-- The fencing tokens of session mode (PostgreSQL): one sequence for the table's every lock, so a
-- grant's token is greater than every earlier grant's, whatever the lock. No bind parameters.
CREATE SEQUENCE IF NOT EXISTS {table}_tokens
