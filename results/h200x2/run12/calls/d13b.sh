#!/bin/sh
# d13b.sh: build (with t_gpu); plan:1:warm on the warm host of d13a; t_gpu
# plan_* and small_spaces; the H200 export parity of xyz R=4 512^3
C=$COMMIT
TARGETS="fdtune build/t_gpu" sh .device/prep.sh || exit 1
COMMIT=$C LIMIT=200 sh .device/x2.sh 2 plan:1:warm > /dev/null 2>&1
cp /tmp/scal/plan-1-warm.log "$OUT/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "held no|switched|wall clock|before the first|problem ./4" /tmp/scal/plan-1-warm.log
for t in 'plan_*' small_spaces; do
	s=$(date +%s)
	timeout 100 env ROOT=. FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY="$t" \
		./build/t_gpu >> "$OUT/tgpu.log" 2>&1
	echo "t_gpu $t: rc $? in $(( $(date +%s) - s )) s" | tee -a "$OUT/tgpu.log"
done
grep -E "^\[  (PASSED|FAILED)|FAILED" "$OUT/tgpu.log" | tail -8
s=$(date +%s)
DEVICE=H200 ROWS_ONLY="xyz:4:fp32" SIZES="" NOW=all timeout 130 sh results/h100/parity/parity.sh \
	results/h200/fdtune.db > "$OUT/parity.md" 2> "$OUT/parity.err"
echo "parity: rc $? in $(( $(date +%s) - s )) s"; tail -6 "$OUT/parity.md"; tail -5 "$OUT/parity.err"
