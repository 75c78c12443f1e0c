#!/bin/sh
# d59.sh (2 GPUs), call 1 of 3 on one host at HEAD: the five-problem plan
# (run16-run18's) cold on 2 GPUs after a short 2-GPU warm-up sweep (the
# VM's memory touched first, NOTES "v75 measured"), then the same plan
# compile-only from an empty cache at the sweep's default threads: the
# compile bound of the cold 2-GPU plan on this host. Results to $OUT.
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
sh .device/prep.sh || exit 1
nvidia-smi -L; nproc
el() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
t0=$(date +%s.%N)
FDTUNE_CACHE=/tmp/wu-cache timeout 150 ./fdtune sweep -q --db /tmp/wu.db -f iso3dfd -r 8 \
	-n 512 --devices 0,1 --max-configs 40 > "$OUT/warmup.log" 2>&1
echo "warm-up (iso3dfd R=8 512^3, 40 configurations, 2 GPUs, own cache): exit $? in $(el "$t0") s" | tee "$OUT/d59.txt"
rm -rf /tmp/wu-cache /tmp/wu.db*
LIMIT=200 sh results/h100x2/scaling.sh /tmp/scal 2 plan:2:cold > /dev/null 2>&1
cp /tmp/scal/scaling.tsv /tmp/scal/times.txt /tmp/scal/anytime.txt "$OUT/"
grep -hE "wall clock|held no|yielded|under way|references made" /tmp/scal/plan-2-cold.log | tee -a "$OUT/d59.txt"
rm -rf /tmp/cc32 /tmp/cc32.db*
t0=$(date +%s.%N)
# shellcheck disable=SC2086
FDTUNE_CACHE=/tmp/cc32 timeout 250 ./fdtune sweep --compile-only --plan /tmp/scal/plan -q \
	--db /tmp/cc32.db $SPACE > "$OUT/cc32.log" 2>&1
echo "compile-only of the plan, all 32 vCPUs, empty cache: exit $? in $(el "$t0") s" | tee -a "$OUT/d59.txt"
grep -hE "wall clock" "$OUT/cc32.log" | tee -a "$OUT/d59.txt"
rm -rf /tmp/cc32 /tmp/cc32.db*
(cd /tmp/scal && tar czf "$OUT/logs1.tgz" *.log *.steps.tsv plan gpus.txt)
