-- energy.sql: for each problem with energy measured, the time-best against
-- the energy-best (v_energy: each configuration's measurements averaged;
-- the time is its record's median): joules a billion points, time, mean
-- power, spread over the measurements, the energy saved and the time lost.
-- sqlite3 DB < energy.sql
.mode markdown
WITH e AS (SELECT * FROM v_energy),
     t AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY device, problem_id ORDER BY median_ms, run_id) rt,
                  ROW_NUMBER() OVER (PARTITION BY device, problem_id ORDER BY j_per_gpt, run_id) re
           FROM e)
SELECT a.family || ' R=' || a.radius || ' ' || a.nx || 'x' || a.ny || 'x' || a.nz AS problem,
       printf('%.3f', a.j_per_gpt) AS "time-best J/Gpt", printf('%.4f', a.median_ms) AS "its ms",
       printf('%.0f', a.watts) AS "its W", printf('%.3f', b.j_per_gpt) AS "energy-best J/Gpt",
       printf('%.4f', b.median_ms) AS "its ms ", printf('%.0f', b.watts) AS "its W ",
       printf('%.1f%%', 100 * (1 - b.j_per_gpt / a.j_per_gpt)) AS "energy saved",
       printf('%.1f%%', 100 * (b.median_ms / a.median_ms - 1)) AS "time lost",
       CASE WHEN a.config_id = b.config_id THEN 'same' ELSE 'different' END AS configuration,
       printf('%.1f%%', 100 * max(a.energy_spread, b.energy_spread)) AS "spread (max)",
       a.n_energy AS n
FROM t a JOIN t b ON b.device = a.device AND b.problem_id = a.problem_id AND b.re = 1
WHERE a.rt = 1 ORDER BY problem;
-- The drift: each process's mean power over the configurations it measured,
-- by problem (a process's sweeps, in the order they ran).
SELECT p.family || ' R=' || p.radius AS problem, r.sweep_id AS sweep, count(*) AS n,
       printf('%.1f', avg(e.watts)) AS "mean W", printf('%.3f', avg(e.j_per_gpt)) AS "mean J/Gpt",
       printf('%.0f', avg(e.sm_mhz)) AS "SM MHz"
FROM energy e JOIN runs r ON r.id = e.run_id JOIN problems p ON p.id = r.problem_id
GROUP BY r.sweep_id ORDER BY problem, sweep;
