#!/bin/sh
# rows.sh: issue 26 §1 on the H200 (device kind nvidia-h200), from the
# repository root after `make`, into DB holding the H100's results too
# (results/h100/fdtune.db merged in, as results/h200/h200.md says):
#   sh results/h200/rows.sh DB
# Every row of issue 13's table at 512^3 (results/h100/highorder-rows.sh),
# then xyz fp32 R = 8 and iso3dfd fp32 R = 8 at 1000x300x129 and 256^3,
# each with fdtune's default strategy: on a GPU with no runs of a problem's
# family and precision, a transfer search seeded from the other devices'
# bests (the H100's, this problem's included), 2% of the space. Each
# sweep's output says where its seeds came from and how many
# configurations it ran.
set -eu
db=${1:?usage: rows.sh DB}
. results/h100/highorder-rows.sh
for q in $ROWS; do
	IFS=: read -r f r pr <<-X
	$q
	X
	echo "== $f R=$r $pr 512^3"
	./fdtune sweep -q --db "$db" -f "$f" -r "$r" --precision "$pr" -n 512 2>&1
done
for n in 1000x300x129 256; do
	for f in xyz iso3dfd; do
		echo "== $f R=8 fp32 $n"
		./fdtune sweep -q --db "$db" -f $f -r 8 -n $n 2>&1
	done
done
./fdtune best --db "$db" --device H200
