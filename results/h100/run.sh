#!/bin/sh
# run.sh: the commands behind the xyz results in results/h100/ (issue 2), run on
# the H100 machine from the repository root after `make`:
#   sh results/h100/run.sh DIR       (DIR defaults to results/h100)
# It resumes: run it again after an interruption and it measures only what is
# missing from DIR/fdtune.db.
set -eu
dir=${1:-results/h100}
db=$dir/fdtune.db
./fdtune devices --calibrate --db "$db"
# the default xyz space for R = 4, 512^3, fp32: every configuration validated
./fdtune sweep --db "$db" -r 4 -n 512
# the seed's configuration: float4, 64x4 threads, y through LDS, nw 100, nontemporal stores
./fdtune sweep --db "$db" -r 4 -n 512 -p vec=4 -p bx=64 -p by=4 -p ypt=1 -p lds=1 \
	-p nw=100 -p nt=1 -p pf=0
./fdtune best --db "$db" --csv > "$dir/best.csv"
./fdtune best --db "$db" --all --csv > "$dir/ranked.csv"
# search strategies replayed against the sweep (CPU only)
for b in 5 10 20; do ./fdtune replay --db "$db" -b $b; done
# the report with plots (CPU only; needs gnuplot)
./fdtune report --db "$db" --out "$dir/report"
