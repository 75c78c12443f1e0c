-- anytime.sql: issue 33's anytime figure from a plan's database: for each
-- problem, the best median among the runs recorded in the first tenth of
-- the plan's wall clock (from its first sweep's start to its last run)
-- against its final best. sqlite3 -column DB < anytime.sql
WITH w AS (SELECT s.t0, e.t1, s.t0 + (e.t1 - s.t0) / 10.0 AS tc
           FROM (SELECT min(CAST(strftime('%s', started) AS INTEGER)) AS t0 FROM sweeps) s,
                (SELECT max(CAST(strftime('%s', created) AS INTEGER)) AS t1 FROM runs) e),
     r AS (SELECT problem_id, median_ms, CAST(strftime('%s', created) AS INTEGER) AS t
           FROM runs WHERE status = 'ok' AND median_ms IS NOT NULL)
SELECT p.family, p.radius AS r, p.nx || 'x' || p.ny || 'x' || p.nz AS size,
       (SELECT t1 - t0 FROM w) AS wall_s, (SELECT round(tc - t0, 1) FROM w) AS tenth_s,
       sum(r.t <= (SELECT tc FROM w)) AS runs_by_then,
       round(min(CASE WHEN r.t <= (SELECT tc FROM w) THEN r.median_ms END), 4) AS best_then,
       round(min(r.median_ms), 4) AS best_final,
       round(min(CASE WHEN r.t <= (SELECT tc FROM w) THEN r.median_ms END) / min(r.median_ms), 3)
         AS then_over_final
FROM r JOIN problems p ON p.id = r.problem_id GROUP BY r.problem_id ORDER BY r.problem_id;
