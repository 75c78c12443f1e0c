#!/bin/sh
# refresh.sh: issue 34's refresh of the 20 H100 bests whose measured build
# was lost when the templates changed (fdtune compact named them: the
# database kept no source and today's templates hash otherwise). On the GPU
# machine from the repository root after `make`:
#   OUT=DIR sh results/h100/refresh/refresh.sh DB
# 1. `fdtune sweep --recheck K` (5) times the K fastest records of each of
#    the 20 problems (refresh.plan) again, on 3 placements each: today's
#    source, and the sweep keeps the sources of what it records;
# 2. DB, xz-compressed, into DIR (fdtune.db.xz), before anything else;
# 3. parity/parity.sh on the 20 rows: each export (measured build embedded)
#    built with nvcc into tests/export_main.cu and timed against its record
#    (parity.md in DIR, a row as each ends).
set -u
db=${1:?usage: refresh.sh DB}
o=${OUT:-/tmp/refresh}
mkdir -p "$o"
t0=$(date +%s)
./fdtune sweep --db "$db" --plan results/h100/refresh/refresh.plan --recheck "${K:-5}" -q \
	> "$o/recheck.log" 2>&1
echo "recheck: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$o/summary.txt"
tail -5 "$o/recheck.log" >> "$o/summary.txt"
xz -T0 -6 -c "$db" > "$o/fdtune.db.xz"
echo "database saved: $(wc -c < "$o/fdtune.db.xz") bytes" | tee -a "$o/summary.txt"
t0=$(date +%s)
ROWS_ONLY="x:4:fp32 y:4:fp32 z:4:fp32 xy:4:fp32 x:8:fp32 y:8:fp32 z:8:fp32 xy:8:fp32 xs:4:fp32
ym:4:fp32 zm:4:fp32 d1x:4:fp32 d1y:4:fp32 d1z:4:fp32" \
SIZES="dxy:3:fp32 dxy:5:fp64 dxy:8:fp32 dxz:3:fp32 dxz:5:fp64 dyz:5:fp64" \
TRIALS=${TRIALS:-3} NOW=stale sh results/h100/parity/parity.sh "$db" > "$o/parity.md" 2> "$o/parity.err"
echo "parity: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$o/summary.txt"
