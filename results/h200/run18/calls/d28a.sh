#!/bin/sh
# d28a.sh: one H200, if no 2-GPU host is lent: t_gpu plan_seeds (its first
# GPU run), plan_cache_term, plan_kill_resume, guided_sweep; then the
# five-problem plan warm (seeded first passes, NOTES "Seeded first
# passes"), its cache filled first by a compile-only sweep. d28b.sh follows.
# (On a 2-GPU host: d23a.sh, d23b.sh; d23b runs t_gpu plan_*, plan_seeds among them.)
C=$COMMIT
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
TARGETS="fdtune build/t_gpu" sh .device/prep.sh || exit 1
set -f
for t in plan_seeds plan_cache_term plan_kill_resume guided_sweep; do
	s=$(date +%s)
	timeout 120 env ROOT=. FDTUNE=./fdtune RESULTS_DB=results/h100/fdtune.db T_ONLY="$t" \
		./build/t_gpu >> "$OUT/tgpu.log" 2>&1
	echo "t_gpu $t: rc $? in $(( $(date +%s) - s )) s" | tee -a "$OUT/tgpu.log"
done
set +f
COMMIT=$C LIMIT=300 sh .device/x2.sh 1 plan:1:warm > /dev/null 2>&1
cat /tmp/scal/scaling.tsv /tmp/scal/anytime.txt; grep -i "warm-up" /tmp/scal/times.txt
grep -hE "held no|wall clock|problem ./5|first pass starts" /tmp/scal/plan-1-warm.log
