#!/bin/sh
# d28c.sh: the five-problem plan cold on one H200 into a database holding
# the H100's shipped records first (SEED_DB: a GPU new to a database of
# another GPU's records), so every first pass is seeded (NOTES "Seeded first
# passes": replayed, each within 2%); the anytime figure counts the plan's
# own sweeps alone.
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
SEED_DB=results/h100/fdtune.db COMMIT=$C LIMIT=330 sh .device/x2.sh 1 plan:1:cold > /dev/null 2>&1
mkdir -p "$OUT/seeded" && cp /tmp/scal/plan-1-cold.steps.tsv "$OUT/seeded/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt; grep -h "merged in" /tmp/scal/times.txt
grep -hE "wall clock|problem ./5|first pass starts" /tmp/scal/plan-1-cold.log
