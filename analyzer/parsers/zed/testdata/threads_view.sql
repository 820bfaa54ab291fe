-- issue 13: threads is a VIEW over an endless recursive CTE (reading it row
-- by row would never end).
CREATE VIEW threads AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c)
  SELECT CAST(x AS TEXT) AS id, 'x' AS summary, '2026-01-01T00:00:00Z' AS updated_at, 'json' AS data_type, CAST('{}' AS BLOB) AS data FROM c;
