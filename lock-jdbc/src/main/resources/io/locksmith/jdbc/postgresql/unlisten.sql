-- Leaves no subscription on a connection that goes back to an application's pool. No bind
-- parameters.
UNLISTEN *
