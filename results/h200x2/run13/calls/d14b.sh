#!/bin/sh
# d14b.sh: build (with t_gpu); plan:2:warm again on d14a's warm host; t_gpu
# guided_sweep, transfer_sweep, plan_*, small_spaces (v58 changed the guided
# and transfer proposals)
C=$COMMIT
TARGETS="fdtune build/t_gpu" sh .device/prep.sh || exit 1
COMMIT=$C LIMIT=130 sh .device/x2.sh 2 plan:2:warm > /dev/null 2>&1
cp /tmp/scal/plan-2-warm.log "$OUT/plan-2-warm-b.log"
tail -3 /tmp/scal/scaling.tsv
grep -hE "held no|wall clock|before the first|problem ./4" /tmp/scal/plan-2-warm.log
for t in guided_sweep transfer_sweep 'plan_*' small_spaces; do
	s=$(date +%s)
	timeout 110 env ROOT=. FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY="$t" \
		./build/t_gpu >> "$OUT/tgpu.log" 2>&1
	echo "t_gpu $t: rc $? in $(( $(date +%s) - s )) s" | tee -a "$OUT/tgpu.log"
done
grep -E "^\[  (PASSED|FAILED)|FAILED" "$OUT/tgpu.log" | tail -8
