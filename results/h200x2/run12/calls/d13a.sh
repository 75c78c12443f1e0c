#!/bin/sh
# d13a.sh: build; v55 on 2 H200s: plan:2:cold (fills the cache), then plan:2:warm
C=$COMMIT
COMMIT=$C LIMIT=260 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
cp /tmp/scal/plan-2-cold.log "$OUT/"
COMMIT=$C LIMIT=150 sh .device/x2.sh 2 plan:2:warm > /dev/null 2>&1
cp /tmp/scal/plan-2-warm.log "$OUT/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "held no|switched|wall clock|before the first|problem ./4" /tmp/scal/plan-2-cold.log /tmp/scal/plan-2-warm.log
