-- anytime.sql: issue 33's anytime figure from a plan's database: for each
-- problem and each share of the plan's wall clock (a tenth, a fifth, a
-- third and a half, from its first sweep's start to its last run), the best
-- median among the runs recorded by then against the problem's final best.
-- sqlite3 -column DB < anytime.sql. Only the sweeps of ids over /*S0*/0
-- count: scaling.sh puts there the last id of what SEED_DB merged in.
WITH w AS (SELECT s.t0, e.t1
           FROM (SELECT min(CAST(strftime('%s', started) AS INTEGER)) AS t0 FROM sweeps
                 WHERE id > /*S0*/0) s,
                (SELECT max(CAST(strftime('%s', created) AS INTEGER)) AS t1 FROM runs
                 WHERE sweep_id > /*S0*/0) e),
     f(share) AS (VALUES (0.1), (0.2), (0.333), (0.5)),
     r AS (SELECT problem_id, median_ms, CAST(strftime('%s', created) AS INTEGER) AS t
           FROM runs WHERE status = 'ok' AND median_ms IS NOT NULL AND sweep_id > /*S0*/0)
SELECT p.family, p.radius AS r, p.nx || 'x' || p.ny || 'x' || p.nz AS size,
       (SELECT t1 - t0 FROM w) AS wall_s, f.share,
       round(f.share * (SELECT t1 - t0 FROM w), 1) AS by_s,
       sum(r.t <= (SELECT t0 + f.share * (t1 - t0) FROM w)) AS runs_by_then,
       round(min(CASE WHEN r.t <= (SELECT t0 + f.share * (t1 - t0) FROM w)
                 THEN r.median_ms END), 4) AS best_then,
       round(min(r.median_ms), 4) AS best_final,
       round(min(CASE WHEN r.t <= (SELECT t0 + f.share * (t1 - t0) FROM w)
                 THEN r.median_ms END) / min(r.median_ms), 3) AS then_over_final
FROM r JOIN problems p ON p.id = r.problem_id, f
GROUP BY r.problem_id, f.share ORDER BY r.problem_id, f.share;
