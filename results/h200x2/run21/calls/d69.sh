#!/bin/bash
# d69.sh (2 GPUs): the cold ratio on one host with compile processes by
# default (v82): for each of ORDER (default "2 1"), plan:G:cold of d66.sh's
# five-problem plan from an empty compile cache; G = 1 runs under
# `taskset -c 0-15` (the cores of a 1-GPU machine, as the issue's cold
# target reads). Logs pN-G.log/.steps.tsv and scaling.tsv to $OUT as each
# run ends.
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
sh .device/prep.sh || exit 1
nvidia-smi -L; nproc
i=0
for g in ${ORDER:-2 1}; do
	i=$((i + 1))
	if [ "$g" = 1 ]; then pin="taskset -c 0-15"; else pin=""; fi
	PIN="$pin" LIMIT=280 COMMIT="${COMMIT:-?}" sh results/h100x2/scaling.sh /tmp/scal 2 "plan:$g:cold" > /dev/null 2>&1
	cp "/tmp/scal/plan-$g-cold.log" "$OUT/p$i-$g.log"
	cp "/tmp/scal/plan-$g-cold.steps.tsv" "$OUT/p$i-$g.steps.tsv"
	cp /tmp/scal/scaling.tsv "$OUT/"
	echo "run $i: plan:$g:cold ${pin:+under $pin}"
	grep -hE "wall clock|held no|under way|compile process" "$OUT/p$i-$g.log"
done
tail -3 /tmp/scal/scaling.tsv
