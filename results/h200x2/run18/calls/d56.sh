#!/bin/sh
# d56.sh (2 GPUs): v78 (iso3dfd's references on the GPU) A/B on one host,
# each from an empty compile cache: plan:2:cold with FDTUNE_GPU_REF set in
# the order ORDER (default "0 1": the CPU's references first), then with
# P1=1 plan:1:cold on vCPUs 0-15 at the default (the cold ratio's
# numerator on the same host). Logs p2-N-gG.log / .steps.tsv.
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
sh .device/prep.sh || exit 1
nvidia-smi -L
i=0
for g in ${ORDER:-0 1}; do
	i=$((i + 1))
	FDTUNE_GPU_REF=$g LIMIT=200 COMMIT="${COMMIT:-?} gref=$g" \
		sh results/h100x2/scaling.sh /tmp/scal 2 plan:2:cold > /dev/null 2>&1
	cp /tmp/scal/plan-2-cold.log "$OUT/p2-$i-g$g.log"
	cp /tmp/scal/plan-2-cold.steps.tsv "$OUT/p2-$i-g$g.steps.tsv"
	echo "run $i FDTUNE_GPU_REF=$g:"
	grep -hE "wall clock|held no|yielded|under way|references made" "$OUT/p2-$i-g$g.log"
	cp /tmp/scal/scaling.tsv /tmp/scal/times.txt /tmp/scal/anytime.txt "$OUT/"
done
if [ "${P1:-0}" = 1 ]; then
	PIN="taskset -c 0-15" LIMIT=260 COMMIT="${COMMIT:-?} gref=1" \
		sh results/h100x2/scaling.sh /tmp/scal 1 plan:1:cold > /dev/null 2>&1
	cp /tmp/scal/plan-1-cold.log /tmp/scal/plan-1-cold.steps.tsv "$OUT/"
	echo "plan:1:cold on vCPUs 0-15:"
	grep -hE "wall clock|held no|references made" "$OUT/plan-1-cold.log"
	cp /tmp/scal/scaling.tsv /tmp/scal/times.txt /tmp/scal/anytime.txt "$OUT/"
fi
tail -4 /tmp/scal/scaling.tsv
