#!/bin/sh
# d14c.sh: plan:1:warm again on the warm host, then plan:1:cold on 16 of the
# host's 32 cores (a 1-GPU machine's), the cache emptied first
C=$COMMIT
COMMIT=$C LIMIT=200 sh .device/x2.sh 2 plan:1:warm > /dev/null 2>&1
cp /tmp/scal/plan-1-warm.log "$OUT/plan-1-warm-c.log"
PIN="taskset -c 0-15" COMMIT=$C LIMIT=330 sh .device/x2.sh 2 plan:1:cold > /dev/null 2>&1
cp /tmp/scal/plan-1-cold.log "$OUT/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "left out|held no|switched|wall clock|before the first|problem ./4" /tmp/scal/plan-1-cold.log /tmp/scal/plan-1-warm.log
