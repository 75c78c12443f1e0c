#!/bin/sh
# d30a.sh: one H200: t_gpu plan_seeds (now with --seeds-from), then the
# five-problem plan cold into an empty database with --seeds-from
# results/h100/fdtune.db (the H100's shipped records, only read): its
# anytime figure, step log and the first passes' seeds.
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
TARGETS="fdtune build/t_gpu" sh .device/prep.sh || exit 1
s=$(date +%s)
timeout 120 env ROOT="$PWD" FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY=plan_seeds \
	./build/t_gpu > "$OUT/tgpu.log" 2>&1
echo "t_gpu plan_seeds: rc $? in $(( $(date +%s) - s )) s" | tee -a "$OUT/tgpu.log"
SEEDS_FROM=results/h100/fdtune.db COMMIT=$C LIMIT=330 sh .device/x2.sh 1 plan:1:cold > /dev/null 2>&1
mkdir -p "$OUT/sf" && cp /tmp/scal/plan-1-cold.steps.tsv "$OUT/sf/"
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt
grep -hE "wall clock|problem ./5|first pass starts|seeds-from" /tmp/scal/plan-1-cold.log
