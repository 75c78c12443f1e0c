#!/bin/sh
# d14a.sh: build; v59 on 2 H200s: plan:2:cold (fills the cache), plan:2:warm,
# plan:1:warm
C=$COMMIT
COMMIT=$C LIMIT=200 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
cp /tmp/scal/plan-2-cold.log "$OUT/"
COMMIT=$C LIMIT=130 sh .device/x2.sh 2 plan:2:warm > /dev/null 2>&1
cp /tmp/scal/plan-2-warm.log "$OUT/"
COMMIT=$C LIMIT=200 sh .device/x2.sh 2 plan:1:warm > /dev/null 2>&1
cp /tmp/scal/plan-1-warm.log "$OUT/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "left out|held no|switched|wall clock|before the first|problem ./4" /tmp/scal/plan-*.log
