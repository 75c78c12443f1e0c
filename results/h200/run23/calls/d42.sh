#!/bin/sh
# d42.sh (1 GPU): v73's warm plan. The five-problem plan (21818
# configurations) warm on all 16 vCPUs: the cache filled by a compile-only
# sweep of the plan (scaling.sh's warm-up), then plan:1:warm at HEAD, then
# the same with FDTUNE_WARM=0 (no warm pool). run17-18: 192.3-196.1 s;
# run22 call 4 (v71): 202.6 s, the GPU measuring 95% of the steps.
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
COMMIT=$COMMIT LIMIT=240 sh .device/x2.sh 1 plan:1:warm > /dev/null 2>&1
cp /tmp/scal/plan-1-warm.log "$OUT/warm.log"
FDTUNE_WARM=0 COMMIT=$COMMIT-nowarm LIMIT=240 sh results/h100x2/scaling.sh /tmp/scal 1 plan:1:warm > /dev/null 2>&1
cp /tmp/scal/plan-1-warm.log "$OUT/warm-nowarm.log"
cp /tmp/scal/scaling.tsv /tmp/scal/times.txt "$OUT/"
tail -3 /tmp/scal/scaling.tsv
grep -h "held a config" "$OUT"/warm*.log
