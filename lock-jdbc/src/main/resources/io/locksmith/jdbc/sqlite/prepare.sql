-- Run once at open: write-ahead logging lets readers and one writer share the file, so several
-- clients (and processes) can use one database file. It is a property of the file, not the
-- connection. No bind parameters.
PRAGMA journal_mode = WAL
