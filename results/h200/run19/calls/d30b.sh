#!/bin/sh
# d30b.sh: one H200, after v69b: the five-problem plan cold into an empty
# database with --seeds-from results/h100/fdtune.db (per_value seeds), its
# anytime figure, step log and the first passes' seeds; the devices its
# database holds.
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
SEEDS_FROM=results/h100/fdtune.db COMMIT=$C LIMIT=330 sh .device/x2.sh 1 plan:1:cold > /dev/null 2>&1
mkdir -p "$OUT/sf" && cp /tmp/scal/plan-1-cold.steps.tsv "$OUT/sf/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "wall clock|problem ./5|first pass starts" /tmp/scal/plan-1-cold.log
