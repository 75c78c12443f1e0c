#!/bin/sh
# highorder-table.sh: the before/after table of results/h100/highorder.md
# (issue 13), on the CPU from the repository root (sqlite3):
#   sh results/h100/highorder-table.sh [DB] [BEFORE]
# "before" is the best run recorded before BEFORE (default
# 2026-11-23T14:40:00Z, the start of the work on issue 13), "after" the best
# record now (v_current: each configuration's newest run, schema 6); % of the copy bandwidth fdtune measured in the same sweep, H100.
set -eu
db=${1:-results/h100/fdtune.db}
before=${2:-2026-11-23T14:40:00Z}
sqlite3 "$db" <<SQL
.mode markdown
WITH t(family, radius, prec, nx, ny, nz, target) AS (VALUES
 ('xyz',1,'fp32',512,512,512,88),('xyz',2,'fp32',512,512,512,88),('xyz',3,'fp32',512,512,512,88),
 ('xyz',4,'fp32',512,512,512,88),('xyz',5,'fp32',512,512,512,85),('xyz',6,'fp32',512,512,512,85),
 ('xyz',7,'fp32',512,512,512,85),('xyz',8,'fp32',512,512,512,85),
 ('xyz',1,'fp64',512,512,512,85),('xyz',2,'fp64',512,512,512,85),('xyz',3,'fp64',512,512,512,85),
 ('xyz',4,'fp64',512,512,512,85),('xyz',5,'fp64',512,512,512,75),('xyz',6,'fp64',512,512,512,75),
 ('xyz',7,'fp64',512,512,512,75),('xyz',8,'fp64',512,512,512,75),
 ('iso3dfd',8,'fp32',512,512,512,85),('iso3dfd',8,'fp64',512,512,512,70),
 ('dxy',4,'fp32',512,512,512,85),('dyz',4,'fp32',512,512,512,85),('dxz',4,'fp32',512,512,512,85),
 ('xyz',4,'fp32',1000,300,129,NULL),('xyz',4,'fp32',640,480,400,NULL),('xyz',4,'fp32',256,256,256,NULL),
 ('xyz',8,'fp32',1000,300,129,NULL),('xyz',8,'fp32',640,480,400,NULL),('xyz',8,'fp32',256,256,256,NULL),
 ('iso3dfd',8,'fp32',1000,300,129,NULL),('iso3dfd',8,'fp32',640,480,400,NULL),
 ('iso3dfd',8,'fp32',256,256,256,NULL)),
b AS (SELECT t.*,
 (SELECT max(r.pct_copy) FROM runs r JOIN problems p ON p.id = r.problem_id
  WHERE p.family = t.family AND p.radius = t.radius AND p.precision = t.prec AND p.nx = t.nx
  AND p.ny = t.ny AND p.nz = t.nz AND r.status = 'ok' AND r.created < '$before') AS was,
 (SELECT max(r.pct_copy) FROM runs r JOIN problems p ON p.id = r.problem_id
  WHERE p.family = t.family AND p.radius = t.radius AND p.precision = t.prec AND p.nx = t.nx
  AND p.ny = t.ny AND p.nz = t.nz AND r.id IN (SELECT run_id FROM v_current)) AS now,
 (SELECT max(r.pct_copy) FROM runs r JOIN problems p ON p.id = r.problem_id
  WHERE p.family = t.family AND p.radius = t.radius AND p.precision = t.prec AND p.nx = 512
  AND p.ny = 512 AND p.nz = 512 AND r.id IN (SELECT run_id FROM v_current)) AS at512
 FROM t)
SELECT family || ' ' || prec || ' R = ' || radius AS problem, nx || 'x' || ny || 'x' || nz AS size,
 CASE WHEN was IS NULL THEN '-' ELSE printf('%.1f', was) END AS before,
 CASE WHEN now IS NULL THEN 'not measured' ELSE printf('%.1f', now) END AS after,
 CASE WHEN target IS NOT NULL THEN '>= ' || target
      ELSE '>= ' || printf('%.1f', at512 - 5) || ' (512³ - 5)' END AS target,
 CASE WHEN now IS NULL THEN 'no'
      WHEN now >= coalesce(target, at512 - 5) THEN 'met' ELSE 'missed by ' ||
      printf('%.1f', coalesce(target, at512 - 5) - now) END AS verdict
FROM b;
SQL
