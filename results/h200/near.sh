#!/bin/sh
# near.sh: issue 26, on the H200 after run.sh: what the H100 data knows,
# searched on the H200 by hand until the transfer search seeds from another
# device: around each H100 best (results/h100/fdtune.db: runs 78128, 55205,
# 76117), the block shape, rows per thread, window, prefetch and unroll
# varied together, every combination run (exhaustive), into DB.
#   sh results/h200/near.sh DB
set -eu
db=${1:?usage: near.sh DB}
s() { ./fdtune sweep -q --db "$db" -s exhaustive "$@"; }
# xyz R = 4: H100 best vec 2, 64x8, ypt 2, lds 2, nw 192, pf 2, zu 4
s -r 4 -n 512 -p vec=2,4 -p bx=32,64 -p by=4,8 -p ypt=1,2 -p lds=2 -p nw=192,512 -p nt=0,1 \
	-p pf=1,2 -p zu=2,4
# xyz R = 8: H100 best vec 4, 32x8, ypt 2, lds 2, nw 512, nt 1, pf 2, zu 3
s -r 8 -n 512 -p vec=2,4 -p bx=32,64 -p by=4,8 -p ypt=1,2 -p lds=2 -p nw=192,512 -p nt=0,1 \
	-p pf=1,2 -p zu=2,3
# iso3dfd R = 8: H100 best vec 4, 64x4, ypt 1, lds 2, nw 512, nt 1, pf 0, zu 4, wr 1
s -f iso3dfd -r 8 -n 512 -p vec=2,4 -p bx=32,64 -p by=4,8 -p ypt=1,2 -p lds=2 -p nw=192,512 \
	-p nt=0,1 -p pf=0,1 -p zu=2,4 -p wr=1
./fdtune best --db "$db"
