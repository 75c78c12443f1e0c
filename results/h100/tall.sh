#!/bin/sh
# tall.sh: issue 24, "two blocks an SM at R = 8" by another road: the best
# tile of R = 8 (32 threads x 8 rows x 2 rows a thread, 240 registers, 8
# warps an SM) split over twice the threads, one row each (by 16, ypt 1):
# the z queue of a thread halves (17 x 1 partial sums instead of 17 x 2), so
# vec 4 fits 128 registers (16 warps an SM) and vec 2 64 (32 warps), with the
# same tile and LDS ring. by = 16 is outside the default domain (2, 4, 8);
# the sweep gives it with -p. Each problem is swept over that space and its
# database best's configuration is timed in the same fresh database, on the
# same board. On the GPU machine from the repository root after `make`:
#   OUT=DIR sh results/h100/tall.sh
set -u
out=${OUT:-/tmp/tall}
mkdir -p "$out"
db=$out/tall.db
tall="-p vec=2,4 -p bx=32,64 -p by=16 -p ypt=1 -p lds=2 -p nt=0,1 -p pf=0,1,2 -p zu=1,2,4"
# size, the new space's nw, and the database best's configuration there
while read -r n nw best; do
	# shellcheck disable=SC2086
	./fdtune sweep -q --db "$db" -s exhaustive -r 8 -n "$n" $tall -p nw="$nw" </dev/null 2>&1 |
		grep -E 'configurations in|done'
	# shellcheck disable=SC2086
	./fdtune sweep -q --db "$db" -s exhaustive -r 8 -n "$n" $best </dev/null 2>&1 | grep -E 'done'
	echo "== xyz R=8 $n: the database best's configuration ($best)"
	./fdtune best --all --db "$db" -r 8 -n "$n" </dev/null | grep '"by":8' | head -1
	echo "== the fastest of by 16, ypt 1"
	./fdtune best --all --db "$db" -r 8 -n "$n" </dev/null | head -9
done <<'EOF2'
512 128,256,512 -p vec=4 -p bx=32 -p by=8 -p ypt=2 -p lds=2 -p nw=512 -p nt=1 -p pf=2 -p zu=3
1000x300x129 32,48,64,129 -p vec=4 -p bx=32 -p by=8 -p ypt=2 -p lds=2 -p nw=48 -p nt=1 -p pf=1 -p zu=4
EOF2
