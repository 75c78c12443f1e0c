#!/bin/sh
# d27b.sh: v67b (fills do not hold the descent up) cold, the four problems
# over vec 1, 2, 4, on one H200: the machine primed, then plan:1:cold.
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4"
COMMIT=$C LIMIT=240 sh .device/x2.sh 1 plan:1:cold > /dev/null 2>&1
mkdir -p "$OUT/v67b" && cp /tmp/scal/plan-1-cold.steps.tsv "$OUT/v67b/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt; grep -i "primed\|prime" /tmp/scal/times.txt
grep -h "wall clock\|problem ./4\|held no\|compiled ahead\|would have waited" /tmp/scal/times.txt | tail -30
head -12 /tmp/scal/plan-1-cold.steps.tsv
