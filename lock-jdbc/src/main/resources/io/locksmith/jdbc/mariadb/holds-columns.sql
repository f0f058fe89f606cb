-- Reads the holds table's columns (no rows) to check its shape at open. No bind parameters.
SELECT * FROM {table} WHERE 1 = 0
