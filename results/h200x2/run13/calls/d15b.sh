#!/bin/sh
# d15b.sh: plan:1:cold on 16 of the host's 32 cores (the cache emptied
# first), then plan:1:warm on the cache it filled
C=$COMMIT
PIN="taskset -c 0-15" COMMIT=$C LIMIT=300 sh .device/x2.sh 2 plan:1:cold > /dev/null 2>&1
cp /tmp/scal/plan-1-cold.log "$OUT/"
COMMIT=$C LIMIT=200 sh .device/x2.sh 2 plan:1:warm > /dev/null 2>&1
cp /tmp/scal/plan-1-warm.log "$OUT/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "compiled ahead|held no|wall clock|before the first|problem ./4" /tmp/scal/plan-1-cold.log /tmp/scal/plan-1-warm.log
