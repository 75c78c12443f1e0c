#!/bin/sh
# families.sh: the sweeps of issue 3 on the GPU machine, from the repository
# root after `make`:  sh results/h100/families.sh DB R [R ...]
# For each radius R: the default spaces of the directional families x, y, z
# and the fused xy family at 512^3, fp32, both as stores (acc=0) and as
# accumulating passes (acc=1) of the multi-pass strategies; with R = 8 also
# a guided sweep of the fused xyz family (R = 4 is in run.sh, exhaustive).
# Every configuration is validated. `fdtune best --strategies` then compares
# fused, two-pass and three-pass evaluation of the xyz sum. Resumable.
set -eu
db=$1
shift
for r in "$@"; do
	for f in x y z xy; do
		./fdtune sweep --db "$db" -f $f -r "$r" -n 512 -q
	done
	if [ "$r" != 4 ]; then
		./fdtune sweep --db "$db" -f xyz -r "$r" -n 512 -s guided --evals 10 -q
	fi
done
