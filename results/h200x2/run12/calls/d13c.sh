#!/bin/sh
# d13c.sh: plan:1:cold on 16 of the host's 32 cores (a 1-GPU machine's), the
# cache emptied first
C=$COMMIT
PIN="taskset -c 0-15" COMMIT=$C LIMIT=520 sh .device/x2.sh 2 plan:1:cold > /dev/null 2>&1
cp /tmp/scal/plan-1-cold.log "$OUT/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "held no|switched|wall clock|before the first|problem ./4" /tmp/scal/plan-1-cold.log
