#!/bin/sh
# d25b.sh: right after d25a.sh: v66's plan:1:cold of the vec 1, 2, 4 plan,
# then t_gpu plan_*, guided_sweep and small_spaces
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4"
COMMIT=$C LIMIT=250 sh .device/x2.sh 1 plan:1:cold > /dev/null 2>&1
cat /tmp/scal/scaling.tsv; grep -hE "held no|wall clock|problem ./4|under way" /tmp/scal/plan-1-cold.log
tail -20 /tmp/scal/anytime.txt
TARGETS="build/t_gpu" sh .device/prep.sh > /dev/null
set -f
for t in "plan_*" guided_sweep small_spaces; do
	s=$(date +%s)
	timeout 150 env ROOT=. FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY="$t" \
		./build/t_gpu >> "$OUT/tgpu.log" 2>&1
	echo "t_gpu $t: rc $? in $(( $(date +%s) - s )) s" | tee -a "$OUT/tgpu.log"
done
