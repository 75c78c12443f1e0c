#!/bin/sh
# d27c.sh: the five-problem plan (EXTRA, over 3 minutes on one H200)
# cold on one H200, at the reverted search (a541e4d): the machine primed,
# then plan:1:cold, its step log and anytime figure.
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
COMMIT=$C LIMIT=330 sh .device/x2.sh 1 plan:1:cold > /dev/null 2>&1
mkdir -p "$OUT/c5" && cp /tmp/scal/plan-1-cold.steps.tsv "$OUT/c5/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt; grep -i "primed\|prime" /tmp/scal/times.txt
grep -h "wall clock\|problem ./5\|held no\|compiled ahead\|would have waited" /tmp/scal/times.txt | tail -30
head -14 /tmp/scal/plan-1-cold.steps.tsv
