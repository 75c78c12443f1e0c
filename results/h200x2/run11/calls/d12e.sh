#!/bin/sh
# d12e.sh: build; t_gpu online_wave (issue 39's resumed bound); plan:2:cold
TARGETS="fdtune build/libfdtune.a build/t_gpu" sh .device/prep.sh || exit 1
nvidia-smi -L
s=$(date +%s)
timeout 110 env ROOT=. FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY=online_wave \
	./build/t_gpu > "$OUT/tgpu.log" 2>&1
echo "t_gpu online_wave: rc $? in $(( $(date +%s) - s )) s" | tee -a "$OUT/tgpu.log"
grep -E "^\[  (PASSED|FAILED|  SKIPPED)|FAILED|settle" "$OUT/tgpu.log" | tail -6
COMMIT=$COMMIT LIMIT=200 sh .device/x2.sh 2 plan:2:cold > /dev/null 2>&1
cp /tmp/scal/plan-2-cold.log "$OUT/"
cat /tmp/scal/scaling.tsv
grep -E "configurations in|held no|problem ./4" /tmp/scal/plan-2-cold.log
