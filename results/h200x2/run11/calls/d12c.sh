#!/bin/sh
# d12c.sh: plan:1:warm without MAP_POPULATE, then with (the warm host of d12b)
C=$COMMIT
FDTUNE_NOPOP=1 COMMIT=$C+nopop LIMIT=200 sh .device/x2.sh 2 plan:1:warm > /dev/null 2>&1
cp /tmp/scal/plan-1-warm.log "$OUT/plan-1-warm-nopop.log"
COMMIT=$C LIMIT=200 sh .device/x2.sh 2 plan:1:warm > /dev/null 2>&1
cp /tmp/scal/plan-1-warm.log "$OUT/plan-1-warm-pop.log"
cat /tmp/scal/scaling.tsv /tmp/scal/times.txt
grep -hE "held no|switched|wall clock|put on|host data" "$OUT"/plan-1-warm-*.log
