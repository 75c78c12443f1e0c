#!/bin/sh
# d19a.sh: build (with t_gpu); t_gpu plan_* and guided_sweep with v63's
# fills; then on 2 H200s, each from an empty cache: plan:2:cold, plan:1:cold
# on 16 of the 32 cores, and plan:2:cold again with FDTUNE_FILL=0 (the same
# host's control; its row's commit is marked -nofill)
C=$COMMIT
TARGETS="fdtune build/t_gpu" sh .device/prep.sh || exit 1
for t in 'plan_*' guided_sweep; do
	s=$(date +%s)
	timeout 60 env ROOT=. FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY="$t" \
		./build/t_gpu >> "$OUT/tgpu.log" 2>&1
	echo "t_gpu $t: rc $? in $(( $(date +%s) - s )) s" | tee -a "$OUT/tgpu.log"
done
COMMIT=$C LIMIT=150 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
PIN="taskset -c 0-15" COMMIT=$C LIMIT=200 sh .device/x2.sh 2 plan:1:cold > /dev/null 2>&1
tail -1 /tmp/scal/scaling.tsv
cp /tmp/scal/plan-2-cold.db /tmp/plan-2-cold-fill.db; cp /tmp/scal/plan-2-cold.log /tmp/plan-2-cold-fill.log
FDTUNE_FILL=0 COMMIT=$C-nofill LIMIT=150 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
cp /tmp/plan-2-cold-fill.log "$OUT/"
(cd /tmp && xz -T8 -3 -c plan-2-cold-fill.db > "$OUT/plan-2-cold-fill.db.xz")
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "compiled ahead|held no|wall clock|problem ./4|run by GPUs" /tmp/plan-2-cold-fill.log /tmp/scal/plan-*.log
