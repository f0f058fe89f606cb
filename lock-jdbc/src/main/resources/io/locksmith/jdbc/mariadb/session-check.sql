-- Checks at open that the server has named locks (MariaDB, MySQL). No bind parameters.
SELECT IS_FREE_LOCK('locksmith-check')
