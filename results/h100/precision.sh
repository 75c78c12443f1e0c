#!/bin/sh
# precision.sh: the fp32/fp64 table of issue 4 on the GPU machine, from the
# repository root after `make`:  sh results/h100/precision.sh DB
# For R = 1..8 and both precisions, at 512^3: the fused xyz family and the
# directional z family (register window), each over a small space around
# its known good configurations (vec 1, 2, 4; vec 4 is refused for fp64).
# Every configuration validated. The table: fdtune best --db DB -f xyz (or
# z) lists Mcells/s per radius and precision. Resumable.
set -eu
db=$1
for r in 1 2 3 4 5 6 7 8; do
	for p in fp32 fp64; do
		./fdtune sweep --db "$db" -f xyz -r $r -n 512 --precision $p -q \
			-p vec=1,2,4 -p bx=64 -p by=4 -p ypt=1,2 -p lds=1,2 -p nw=64,192 \
			-p nt=0 -p pf=1 -p mb=0 -p ku=0 -p zd=0
		./fdtune sweep --db "$db" -f z -r $r -n 512 --precision $p -q \
			-p vec=1,2,4 -p bx=64,256 -p by=1,4 -p nw=32,128 -p pf=1 -p nt=0 -p acc=0
	done
done
