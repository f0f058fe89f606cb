-- Starts an attempt's transaction and takes the database's write lock at once (waiting up to
-- busy_timeout), so that attempts run one at a time and none fails half-way on a lock upgrade.
-- No bind parameters.
BEGIN IMMEDIATE
