#!/bin/sh
# untma.sh: one-off repair of a database written by the fdtune of commit
# 7f2da26..HEAD~ (2026-11-25), which wrote the new late parameter tma in
# every xyz and iso3dfd configuration's JSON, "tma":0 included; fdtune now
# leaves a late parameter at its lo out (tuner/tn.h, tn_param), so that a
# configuration keeps one identity. Each configuration with "tma":0 is
# folded into its twin without tma (its builds and runs move there), or,
# where it has no twin, loses the key. On the CPU (sqlite3):
#   sh results/h100/untma.sh DB
set -eu
db=${1:?usage: untma.sh DB}
sqlite3 "$db" <<'SQL'
BEGIN;
CREATE TEMP TABLE m AS SELECT c.id AS old, d.id AS new FROM configs c
 JOIN configs d ON d.family = c.family AND d.params = json_remove(c.params, '$.tma')
 WHERE json_extract(c.params, '$.tma') = 0;
UPDATE runs SET config_id = (SELECT new FROM m WHERE old = runs.config_id)
 WHERE config_id IN (SELECT old FROM m);
UPDATE builds SET config_id = (SELECT new FROM m WHERE old = builds.config_id)
 WHERE config_id IN (SELECT old FROM m);
DELETE FROM configs WHERE id IN (SELECT old FROM m);
UPDATE configs SET params = json_remove(params, '$.tma') WHERE json_extract(params, '$.tma') = 0;
SELECT (SELECT count(*) FROM m) || ' configurations folded into their twins, ' ||
 changes() || ' renamed; ' || (SELECT count(*) FROM configs WHERE params LIKE '%"tma":0%') ||
 ' left with "tma":0';
COMMIT;
SQL
