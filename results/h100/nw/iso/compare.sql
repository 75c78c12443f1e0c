-- The 20 rechecked records of iso3dfd R = 8 512^3 fp32: the fastest of A's
-- two rounds (nw a constant) against B's (the window from the launch), by
-- configuration. sqlite3 A.db < compare.sql, with B.db beside it.
ATTACH 'B.db' AS b;
.mode markdown
WITH a AS (SELECT c.params p, min(r.median_ms) ms, count(*) n FROM runs r
           JOIN configs c ON c.id = r.config_id WHERE r.sweep_id >= 311 GROUP BY p),
     bb AS (SELECT c.params p, min(r.median_ms) ms, count(*) n FROM b.runs r
            JOIN b.configs c ON c.id = r.config_id WHERE r.sweep_id >= 311 GROUP BY p)
SELECT printf('%.4f', a.ms) AS "A ms", printf('%.4f', bb.ms) AS "B ms",
       printf('%.3f', bb.ms / a.ms) AS "B/A",
       json_extract(a.p, '$.bx') || 'x' || json_extract(a.p, '$.by') AS block,
       json_extract(a.p, '$.vec') AS vec, json_extract(a.p, '$.nw') AS nw,
       json_extract(a.p, '$.zu') AS zu, json_extract(a.p, '$.pf') AS pf
FROM a JOIN bb ON bb.p = a.p ORDER BY a.ms;
