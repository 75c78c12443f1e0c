#!/bin/sh
# d22a.sh: v64 with scaling.sh's prime, on 2 H200s: plan:2:cold,
# plan:1:cold on 16 of the 32 cores, plan:2:cold again (each from an empty
# compile cache; the machine primed once before the first)
C=$COMMIT
sh .device/prep.sh || exit 1
COMMIT=$C LIMIT=110 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
cp /tmp/scal/plan-2-cold.log /tmp/first-2-cold.log
PIN="taskset -c 0-15" COMMIT=$C LIMIT=170 sh .device/x2.sh 2 plan:1:cold > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
COMMIT=$C-again LIMIT=110 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
cp /tmp/first-2-cold.log "$OUT/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt; grep primed /tmp/scal/times.txt
grep -hE "held no|wall clock|problem ./4|under way|run by GPUs" /tmp/first-2-cold.log /tmp/scal/plan-1-cold.log /tmp/scal/plan-2-cold.log
