#!/bin/sh
# drop-first-pass.sh: how the first pass of rows.sh (before the transfer
# search widened its space by the seeds outside the default domains, NOTES
# v26) left the database: its H200 runs, builds and sweeps of the problems
# rows.sh sweeps by transfer are deleted, so that the second pass runs each
# with the whole 2% budget and the database holds the second pass's runs.
# The full searches (xyz fp32 R = 4, iso3dfd fp32 R = 8) and xyz fp32 R = 8
# at 512^3 keep theirs. Run on the working database between the passes:
#   sh results/h200/drop-first-pass.sh DB
# (On the GPU machine, which has no sqlite3, the same statements ran through
# Python's sqlite3 module.) The first pass's figures are in h200.md.
set -eu
db=${1:?usage: drop-first-pass.sh DB}
sqlite3 "$db" "
CREATE TEMP TABLE dev AS SELECT id FROM devices WHERE name LIKE '%H200%';
CREATE TEMP TABLE gone AS SELECT id FROM problems WHERE
 (nx = 512 AND ny = 512 AND nz = 512 AND NOT (family = 'xyz' AND precision = 'fp32' AND radius IN (4, 8))
  AND NOT (family = 'iso3dfd' AND precision = 'fp32'))
 OR (radius = 8 AND precision = 'fp32' AND family IN ('xyz', 'iso3dfd')
  AND ((nx = 1000 AND ny = 300 AND nz = 129) OR (nx = 256 AND ny = 256 AND nz = 256)));
DELETE FROM runs WHERE problem_id IN (SELECT id FROM gone) AND device_id IN (SELECT id FROM dev);
DELETE FROM builds WHERE sweep_id IN (SELECT id FROM sweeps WHERE problem_id IN (SELECT id FROM gone)
 AND device_id IN (SELECT id FROM dev));
DELETE FROM sweeps WHERE problem_id IN (SELECT id FROM gone) AND device_id IN (SELECT id FROM dev);
SELECT changes();"
