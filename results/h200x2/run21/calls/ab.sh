#!/bin/sh
# ab.sh PATCH FILE WORD (2 GPUs): an A/B by patch on one host, each
# plan:2:cold of the five-problem plan (run16-run21's) from an empty compile
# cache: A the tree as carried, B the same tree with .device/PATCH reversed
# (checked: FILE no longer holds WORD), in the order ORDER (default "A B";
# the next call "B A"). Logs pN-W.log/.steps.tsv, scaling.tsv and times.txt
# to $OUT as each run ends.
p=${1:?usage: ab.sh PATCH FILE WORD}; f=${2:?}; word=${3:?}
export SPACE="-s exhaustive -p vec=1,2,4" EXTRA="iso3dfd 8 640x480x400"
sh .device/prep.sh || exit 1
nvidia-smi -L
# (the device's git metadata is stale: the tree is copied as it came)
rm -rf /tmp/b && mkdir /tmp/b &&
	tar --exclude=./.git --exclude=./build --exclude=./.device --exclude=./fdtune --exclude=./build-san \
		--exclude=./build-fuzz -cf - . | tar -xf - -C /tmp/b &&
	(cd /tmp/b && patch -R -p1 -s < "$OLDPWD/.device/$p" &&
	 make -j"$(nproc)" fdtune > /tmp/b.log 2>&1) || { tail -20 /tmp/b.log; exit 1; }
grep -q "$word" "/tmp/b/$f" && { echo "ab.sh: $p not reversed"; exit 1; }
i=0
for w in ${ORDER:-A B}; do
	i=$((i + 1))
	if [ "$w" = A ]; then t=$PWD; else t=/tmp/b; fi
	(cd "$t" && LIMIT=200 COMMIT="${COMMIT:-?} $w" sh results/h100x2/scaling.sh /tmp/scal 2 plan:2:cold > /dev/null 2>&1)
	cp /tmp/scal/plan-2-cold.log "$OUT/p$i-$w.log"
	cp /tmp/scal/plan-2-cold.steps.tsv "$OUT/p$i-$w.steps.tsv"
	echo "run $i: $w"
	grep -hE "wall clock|held no|yielded|under way|compiled ahead|compile process" "$OUT/p$i-$w.log"
	cp /tmp/scal/scaling.tsv /tmp/scal/times.txt "$OUT/"
done
tail -3 /tmp/scal/scaling.tsv
