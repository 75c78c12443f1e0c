#!/bin/sh
# d15a.sh: build (with t_gpu); v60 on 2 H200s: plan:2:cold (fills the cache),
# plan:2:warm; t_gpu plan_* (FDTUNE_WARM=0 against the warm pool)
C=$COMMIT
TARGETS="fdtune build/t_gpu" sh .device/prep.sh || exit 1
COMMIT=$C LIMIT=200 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
cp /tmp/scal/plan-2-cold.log "$OUT/"
COMMIT=$C LIMIT=130 sh .device/x2.sh 2 plan:2:warm > /dev/null 2>&1
cp /tmp/scal/plan-2-warm.log "$OUT/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "compiled ahead|held no|wall clock|before the first|problem ./4" /tmp/scal/plan-*.log
s=$(date +%s)
timeout 90 env ROOT=. FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY='plan_*' \
	./build/t_gpu > "$OUT/tgpu.log" 2>&1
echo "t_gpu plan_*: rc $? in $(( $(date +%s) - s )) s"
grep -E "^\[  (PASSED|FAILED)|FAILED" "$OUT/tgpu.log" | tail -4
