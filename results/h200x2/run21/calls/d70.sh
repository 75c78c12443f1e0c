#!/bin/sh
# d70.sh (2 GPUs): v83 A/B on one host, each plan:2:cold of the five-problem
# plan from an empty compile cache: A the tree as carried (v83), B the same
# tree with .device/v83.patch reversed (v82: the warm pool on the step's idle
# threads), in the order ORDER (default "A B"; the next call "B A"). Logs
# pN-W.log/.steps.tsv.
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
sh .device/prep.sh || exit 1
nvidia-smi -L
# (the device's git metadata is stale: the tree is copied as it came)
rm -rf /tmp/v82 && mkdir /tmp/v82 &&
	tar --exclude=./.git --exclude=./build --exclude=./.device --exclude=./fdtune --exclude=./build-san \
		--exclude=./build-fuzz -cf - . | tar -xf - -C /tmp/v82 &&
	(cd /tmp/v82 && patch -R -p1 -s < "$OLDPWD/.device/v83.patch" &&
	 make -j"$(nproc)" fdtune > /tmp/v82.log 2>&1) || { tail -20 /tmp/v82.log; exit 1; }
grep -q tn_warm_want /tmp/v82/tuner/sweep/tn_loop.c && { echo "d70: v83.patch not reversed"; exit 1; }
i=0
for w in ${ORDER:-A B}; do
	i=$((i + 1))
	if [ "$w" = A ]; then t=$PWD; else t=/tmp/v82; fi
	(cd "$t" && LIMIT=200 COMMIT="${COMMIT:-?} $w" sh results/h100x2/scaling.sh /tmp/scal 2 plan:2:cold > /dev/null 2>&1)
	cp /tmp/scal/plan-2-cold.log "$OUT/p$i-$w.log"
	cp /tmp/scal/plan-2-cold.steps.tsv "$OUT/p$i-$w.steps.tsv"
	echo "run $i: $w"
	grep -hE "wall clock|held no|yielded|under way|compiled ahead" "$OUT/p$i-$w.log"
	cp /tmp/scal/scaling.tsv /tmp/scal/times.txt "$OUT/"
done
tail -3 /tmp/scal/scaling.tsv
