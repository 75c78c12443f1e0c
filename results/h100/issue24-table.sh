#!/bin/sh
# issue24-table.sh: issue 24's target table before and after, on the CPU from
# the repository root (sqlite3):
#   sh results/h100/issue24-table.sh [DB] [BEFORE]
# "before": the best ok run recorded before BEFORE (default
# 2026-11-25T12:00:00Z, before the first sweep of issue 24); "after": the
# best record now (v_current: each configuration's newest run); % of the
# copy bandwidth fdtune measured in the same sweep, H100. A cell with no run
# says so.
set -eu
db=${1:-results/h100/fdtune.db}
before=${2:-2026-11-25T12:00:00Z}
sqlite3 "$db" <<SQL
.mode markdown
WITH t(family, radius, prec, nx, ny, nz, target) AS (VALUES
 ('xyz',4,'fp32',512,512,512,88),('xyz',4,'fp32',1000,300,129,82),
 ('xyz',4,'fp32',640,480,400,82),('xyz',4,'fp32',256,256,256,82),
 ('xyz',8,'fp32',512,512,512,78),('xyz',8,'fp32',1000,300,129,70),
 ('xyz',8,'fp32',640,480,400,70),('xyz',8,'fp32',256,256,256,70),
 ('xyz',8,'fp64',512,512,512,78),('xyz',8,'fp64',1000,300,129,65),
 ('xyz',8,'fp64',640,480,400,65),('xyz',8,'fp64',256,256,256,65),
 ('iso3dfd',8,'fp32',512,512,512,88),('iso3dfd',8,'fp32',1000,300,129,82),
 ('iso3dfd',8,'fp32',640,480,400,82),('iso3dfd',8,'fp32',256,256,256,82)),
b AS (SELECT t.*,
 (SELECT max(r.pct_copy) FROM runs r JOIN problems p ON p.id = r.problem_id
  WHERE p.family = t.family AND p.radius = t.radius AND p.precision = t.prec AND p.nx = t.nx
  AND p.ny = t.ny AND p.nz = t.nz AND r.status = 'ok' AND r.created < '$before') AS was,
 (SELECT max(c.pct_copy) FROM v_current c
  WHERE c.family = t.family AND c.radius = t.radius AND c.precision = t.prec AND c.nx = t.nx
  AND c.ny = t.ny AND c.nz = t.nz) AS now
 FROM t)
SELECT family || ' ' || prec || ' R = ' || radius AS problem, nx || 'x' || ny || 'x' || nz AS size,
 CASE WHEN was IS NULL THEN '-' ELSE printf('%.1f', was) END AS before,
 CASE WHEN now IS NULL THEN 'not measured' ELSE printf('%.1f', now) END AS after,
 '>= ' || target AS target,
 CASE WHEN now IS NULL THEN 'no run' WHEN now >= target THEN 'met'
      ELSE 'missed by ' || printf('%.1f', target - now) END AS verdict
FROM b;
SQL
