#!/bin/sh
# d20b.sh: right after d20a.sh on its host (the cache it left warm):
# plan:1:warm, then t_gpu guided_sweep, transfer_sweep, plan_* and
# small_spaces
C=$COMMIT
COMMIT=$C LIMIT=190 sh .device/x2.sh 2 plan:1:warm > /dev/null 2>&1
tail -4 /tmp/scal/scaling.tsv
grep -hE "compiled ahead|under way|run by GPUs|held no|wall clock|problem ./4" /tmp/scal/plan-1-warm.log
set -f  # plan_* is a t_gpu pattern, not a glob
for t in ${TESTS:-guided_sweep transfer_sweep plan_* small_spaces}; do
	s=$(date +%s)
	timeout 110 env ROOT=. FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY="$t" \
		./build/t_gpu >> "$OUT/tgpu.log" 2>&1
	echo "t_gpu $t: rc $? in $(( $(date +%s) - s )) s" | tee -a "$OUT/tgpu.log"
done
grep -E "^\[  (PASSED|FAILED)|FAILED" "$OUT/tgpu.log" | tail -8
