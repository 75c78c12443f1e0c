#!/bin/sh
# d17a.sh: build; v61 (with the review's warm-pool fixes) on 2 H200s:
# plan:2:cold, plan:1:cold on 16 of the 32 cores (each from an empty cache),
# then plan:2:warm on the cache the last filled. x2.sh leaves scaling.tsv,
# times.txt, anytime.txt, logs.tgz and dbs.tgz (the plans' databases, for
# their timelines) in $OUT.
C=$COMMIT
sh .device/prep.sh || exit 1
COMMIT=$C LIMIT=160 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
PIN="taskset -c 0-15" COMMIT=$C LIMIT=230 sh .device/x2.sh 2 plan:1:cold > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
COMMIT=$C LIMIT=100 sh .device/x2.sh 2 plan:2:warm > /dev/null 2>&1
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "compiled ahead|held no|wall clock|problem ./4" /tmp/scal/plan-*.log
ls -la "$OUT"
