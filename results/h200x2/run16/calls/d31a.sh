#!/bin/sh
# d31a.sh: 2 H200s, the five-problem plan (scaling.sh's four and iso3dfd 8
# 640x480x400 over -s exhaustive -p vec=1,2,4: 21818 configurations, over 3
# minutes on one H200): plan:2:cold, then plan:1:cold on 16 of the 32 cores
# (each from an empty compile cache). d31b.sh follows at once on this host.
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
COMMIT=$C LIMIT=200 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
PIN="taskset -c 0-15" COMMIT=$C LIMIT=290 sh .device/x2.sh 2 plan:1:cold > /dev/null 2>&1
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt; grep -h primed /tmp/scal/times.txt
grep -hE "wall clock|problem ./5|run by GPUs|held no" /tmp/scal/plan-2-cold.log /tmp/scal/plan-1-cold.log
rm -f "$OUT/dbs.tgz"
