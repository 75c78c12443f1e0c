#!/bin/sh
# d12b.sh: scaling.sh's plan:2:cold (fills the cache), then plan:2:warm with
# MAP_POPULATE and without (FDTUNE_NOPOP)
C=$COMMIT
COMMIT=$C LIMIT=260 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
COMMIT=$C LIMIT=150 sh .device/x2.sh 2 plan:2:warm > /dev/null 2>&1
cp /tmp/scal/plan-2-warm.log "$OUT/plan-2-warm-pop.log"
FDTUNE_NOPOP=1 COMMIT=$C+nopop LIMIT=150 sh .device/x2.sh 2 plan:2:warm > /dev/null 2>&1
cp /tmp/scal/plan-2-warm.log "$OUT/plan-2-warm-nopop.log"
cat /tmp/scal/scaling.tsv /tmp/scal/times.txt
grep -hE "held no|switched|wall clock|put on|host data" "$OUT"/plan-2-warm-*.log /tmp/scal/plan-2-cold.log
