#!/bin/sh
# d20a.sh: build (with t_gpu); v64 (a step swept whole caps its pool in
# builds) on 2 H200s: plan:2:cold, plan:1:cold on 16 of the 32 cores (each
# from an empty cache), then plan:2:warm on the cache the last filled.
# d20b.sh follows at once on the same host.
C=$COMMIT
TARGETS="fdtune build/t_gpu" sh .device/prep.sh || exit 1
COMMIT=$C LIMIT=150 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
PIN="taskset -c 0-15" COMMIT=$C LIMIT=210 sh .device/x2.sh 2 plan:1:cold > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
COMMIT=$C LIMIT=100 sh .device/x2.sh 2 plan:2:warm > /dev/null 2>&1
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "compiled ahead|held no|wall clock|problem ./4|under way|run by GPUs" /tmp/scal/plan-*.log
