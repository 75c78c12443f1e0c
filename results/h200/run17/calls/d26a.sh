#!/bin/sh
# d26a.sh: one H200, if no 2-GPU host is lent: t_gpu race_one, placements
# and recheck (the race's one-launch exit, f4e95f1's margin), then the
# five-problem plan (EXTRA, over 3 minutes on one H200 with v66) warm: its
# cache filled first by a compile-only sweep. d26b.sh follows at once.
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
TARGETS="fdtune build/t_gpu" sh .device/prep.sh || exit 1
set -f
for t in race_one placements recheck; do
	s=$(date +%s)
	timeout 120 env ROOT=. FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY="$t" \
		./build/t_gpu >> "$OUT/tgpu.log" 2>&1
	echo "t_gpu $t: rc $? in $(( $(date +%s) - s )) s" | tee -a "$OUT/tgpu.log"
done
set +f
COMMIT=$C LIMIT=300 sh .device/x2.sh 1 plan:1:warm > /dev/null 2>&1
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt; grep -i "warm-up" /tmp/scal/times.txt
grep -hE "held no|wall clock|problem ./5" /tmp/scal/plan-1-warm.log
