#!/bin/sh
# d28b.sh: right after d28a.sh on its host: the five-problem plan cold
# (seeded first passes), its anytime figure and step log.
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
COMMIT=$C LIMIT=330 sh .device/x2.sh 1 plan:1:cold > /dev/null 2>&1
mkdir -p "$OUT/c5" && cp /tmp/scal/plan-1-cold.steps.tsv "$OUT/c5/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "wall clock|problem ./5|first pass starts" /tmp/scal/plan-1-cold.log
