#!/bin/sh
# d21b.sh: right after d21a.sh on its host, on v64 (v65 reverted): build,
# t_gpu transfer_sweep, small_spaces, guided_sweep
TARGETS="fdtune build/t_gpu" sh .device/prep.sh || exit 1
set -f
for t in ${TESTS:-transfer_sweep small_spaces guided_sweep}; do
	s=$(date +%s)
	timeout 130 env ROOT=. FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY="$t" \
		./build/t_gpu >> "$OUT/tgpu.log" 2>&1
	echo "t_gpu $t: rc $? in $(( $(date +%s) - s )) s" | tee -a "$OUT/tgpu.log"
done
grep -E "^\[  (PASSED|FAILED)|FAILED" "$OUT/tgpu.log" | tail -8
