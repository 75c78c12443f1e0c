#!/bin/sh
# d64.sh (2 GPUs): v80 A/B of plan:2:warm on the host d63.sh left (its
# /tmp/v78 tree, B, and its filled compile cache): A then B.
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
sh .device/prep.sh || exit 1
nvidia-smi -L
[ -x /tmp/v78/fdtune ] && ! grep -q top_up /tmp/v78/tuner/sweep/tn_warm.c || { echo "d64: no B tree"; exit 1; }
i=0
for w in ${ORDER:-A B}; do
	i=$((i + 1))
	if [ "$w" = A ]; then t=$PWD; else t=/tmp/v78; fi
	(cd "$t" && LIMIT=200 COMMIT="${COMMIT:-?} $w" sh results/h100x2/scaling.sh /tmp/scal 2 plan:2:warm > /dev/null 2>&1)
	cp /tmp/scal/plan-2-warm.log "$OUT/w$i-$w.log"
	cp /tmp/scal/plan-2-warm.steps.tsv "$OUT/w$i-$w.steps.tsv"
	echo "run $i: $w"
	grep -hE "wall clock|held no|compiled ahead" "$OUT/w$i-$w.log"
	cp /tmp/scal/scaling.tsv "$OUT/"
done
tail -3 /tmp/scal/scaling.tsv
