#!/bin/sh
# d42b.sh (1 GPU): the warm plan with the compile threads at the sweep's
# priority (FDTUNE_NICE=0), to set beside d42.sh's two runs when v73 does
# not bring the warm plan back to 192-197 s: the cache filled by a
# compile-only sweep of the plan, then plan:1:warm.
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
FDTUNE_NICE=0 COMMIT=$COMMIT-nice0 LIMIT=240 sh .device/x2.sh 1 plan:1:warm > /dev/null 2>&1
cp /tmp/scal/plan-1-warm.log "$OUT/warm-nice0.log"
cp /tmp/scal/scaling.tsv /tmp/scal/times.txt "$OUT/"
tail -1 /tmp/scal/scaling.tsv
grep -h "held a config" "$OUT"/warm*.log
