#!/bin/sh
# d51.sh (2 GPUs): d50.sh in the other order (rounds first), each from
# an empty compile cache: plan:2:cold by default, then with
# FDTUNE_WARM=rounds (v74c's rounds; d49 at b32dc06 on another host: 122.9
# s); then t_gpu's plan_yields (now -j 4) and plan_cache_term.
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
TARGETS="fdtune build/t_gpu build/t_example" sh .device/prep.sh || exit 1
nvidia-smi -L
i=0
for w in rounds ""; do
	i=$((i + 1))
	if [ -n "$w" ]; then export FDTUNE_WARM=$w; else unset FDTUNE_WARM; fi
	LIMIT=200 COMMIT="${COMMIT:-?} warm=${w:-default}" \
		sh results/h100x2/scaling.sh /tmp/scal 2 plan:2:cold > /dev/null 2>&1
	cp /tmp/scal/plan-2-cold.log "$OUT/p2-$i.log"
	cp /tmp/scal/plan-2-cold.steps.tsv "$OUT/p2-$i.steps.tsv"
	echo "run $i FDTUNE_WARM=${w:-default}:"
	grep -hE "wall clock|held no|yielded|under way|compiled ahead" "$OUT/p2-$i.log"
	cp /tmp/scal/scaling.tsv /tmp/scal/times.txt /tmp/scal/anytime.txt "$OUT/"
done
unset FDTUNE_WARM
tail -2 /tmp/scal/scaling.tsv
