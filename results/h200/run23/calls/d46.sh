#!/bin/sh
# d46.sh (1 GPU): an A/B pair on the testbed in one call (the testbed
# spreads 227-266 s at one commit: one run a variant ranks nothing). The
# five-problem plan cold on vCPUs 0-7 twice, first with FDTUNE_YIELD=$A,
# then with FDTUNE_YIELD=$B (each default: unset; "0": no yields), each
# from an empty compile cache (scaling.sh empties it for a cold row), LIMIT
# 270 each (a call of some 570 s). Logs and step logs as ab-1-*, ab-2-*.
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
sh .device/prep.sh || exit 1
i=0
for y in "${A:-}" "${B:-0}"; do
	i=$((i + 1))
	if [ -n "$y" ]; then export FDTUNE_YIELD=$y; else unset FDTUNE_YIELD; fi
	PIN="taskset -c 0-7" LIMIT=${LIMIT:-270} COMMIT="yield=${y:-default}" \
		sh results/h100x2/scaling.sh /tmp/scal 1 plan:1:cold > /dev/null 2>&1
	cp /tmp/scal/plan-1-cold.log "$OUT/ab-$i.log"
	cp /tmp/scal/plan-1-cold.steps.tsv "$OUT/ab-$i.steps.tsv"
	echo "run $i FDTUNE_YIELD=${y:-default}:"
	grep -hE "wall clock|held no|yielded" "$OUT/ab-$i.log"
done
cp /tmp/scal/scaling.tsv "$OUT/"
tail -2 /tmp/scal/scaling.tsv
