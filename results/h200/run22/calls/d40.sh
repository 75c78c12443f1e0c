#!/bin/sh
# d40.sh: the testbed again (d38.sh: the five-problem plan cold on vCPUs 0-7
# of one H200), then the same plan warm on all 16 vCPUs from the cache the
# cold run filled (run21's warm: 195 s)
C=$COMMIT
COMMIT=$C LIMIT=300 sh .device/d38.sh
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
COMMIT=$C LIMIT=240 sh .device/x2.sh 1 plan:1:warm > /dev/null 2>&1
cp /tmp/scal/plan-1-warm.log /tmp/scal/plan-1-warm.steps.tsv /tmp/scal/times.txt "$OUT/" 2>/dev/null
tail -2 /tmp/scal/scaling.tsv
grep -hE "wall clock|held no|held a" /tmp/scal/plan-1-warm.log
rm -f "$OUT/dbs.tgz"
