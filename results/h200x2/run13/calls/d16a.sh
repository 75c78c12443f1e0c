#!/bin/sh
# d16a.sh: build (with t_gpu); v60b on 2 H200s: plan:2:cold, plan:1:cold on
# 16 of the 32 cores (each from an empty cache), then plan:2:warm on the
# cache the last filled; t_gpu plan_* if time is left
C=$COMMIT
TARGETS="fdtune build/t_gpu" sh .device/prep.sh || exit 1
COMMIT=$C LIMIT=160 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
cp /tmp/scal/plan-2-cold.log "$OUT/"
tail -1 /tmp/scal/scaling.tsv
PIN="taskset -c 0-15" COMMIT=$C LIMIT=230 sh .device/x2.sh 2 plan:1:cold > /dev/null 2>&1
cp /tmp/scal/plan-1-cold.log "$OUT/"
tail -1 /tmp/scal/scaling.tsv
COMMIT=$C LIMIT=100 sh .device/x2.sh 2 plan:2:warm > /dev/null 2>&1
cp /tmp/scal/plan-2-warm.log "$OUT/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "compiled ahead|held no|wall clock|problem ./4" /tmp/scal/plan-*.log
timeout 40 env ROOT=. FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY='plan_*' \
	./build/t_gpu > "$OUT/tgpu.log" 2>&1
echo "t_gpu plan_*: rc $?"; grep -E "^\[  (PASSED|FAILED)|FAILED" "$OUT/tgpu.log" | tail -4
