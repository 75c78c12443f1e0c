#!/bin/sh
# d13d.sh: a second pair of warm plans on the cache d13c left full:
# plan:2:warm, then plan:1:warm
C=$COMMIT
COMMIT=$C LIMIT=130 sh .device/x2.sh 2 plan:2:warm > /dev/null 2>&1
cp /tmp/scal/plan-2-warm.log "$OUT/"
COMMIT=$C LIMIT=200 sh .device/x2.sh 2 plan:1:warm > /dev/null 2>&1
cp /tmp/scal/plan-1-warm.log "$OUT/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "held no|switched|wall clock|before the first|problem ./4" /tmp/scal/plan-2-warm.log /tmp/scal/plan-1-warm.log
