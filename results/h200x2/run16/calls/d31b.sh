#!/bin/sh
# d31b.sh: right after d31a.sh on its host (the cache its plan:1:cold
# filled): plan:2:warm, then plan:1:warm, the five-problem plan
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
COMMIT=$C LIMIT=170 sh .device/x2.sh 2 plan:2:warm > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
COMMIT=$C LIMIT=290 sh .device/x2.sh 2 plan:1:warm > /dev/null 2>&1
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "wall clock|problem ./5|run by GPUs|held no" /tmp/scal/plan-*-warm.log
rm -f "$OUT/dbs.tgz"
