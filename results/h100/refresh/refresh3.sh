#!/bin/sh
# refresh3.sh: issue 34's last parity: the 6 mixed-derivative rows at
# 61x37x29, kernels of 5-20 us whose single launches timed with events varied
# by up to 10% (parity2.md, parity3.md). fdtune now times such kernels in
# groups of back-to-back launches (tuner/sweep/tn_time.c), and so does
# tests/export_main.cu --time fdtune. On the GPU machine from the repository
# root after `make` and `make history`:
#   OUT=DIR sh results/h100/refresh/refresh3.sh DB
# 1. `fdtune devices` (the board's UUID);
# 2. `fdtune sweep --recheck 20` of the 6 problems (refresh3.plan): their 20
#    fastest records timed again, now in groups;
# 3. DB, xz-compressed, into DIR (history.db.xz);
# 4. parity/parity.sh on the 6 rows (parity4.md), fdtune's own median of each
#    configuration measured again now beside (NOW=all).
set -u
db=${1:?usage: refresh3.sh DB}
o=${OUT:-/tmp/refresh3}
mkdir -p "$o"
./fdtune devices --db "$db" > "$o/devices.txt" 2>&1
t0=$(date +%s)
./fdtune sweep --db "$db" --plan results/h100/refresh/refresh3.plan --recheck "${K:-20}" -q \
	> "$o/recheck3.log" 2>&1
echo "recheck: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$o/summary3.txt"
grep -E "done|per second" "$o/recheck3.log" >> "$o/summary3.txt"
xz -T0 -6 -c "$db" > "$o/history.db.xz"
echo "database saved: $(wc -c < "$o/history.db.xz") bytes" | tee -a "$o/summary3.txt"
t0=$(date +%s)
ROWS_ONLY="" SIZES="dxy:3:fp32 dxy:5:fp64 dxy:8:fp32 dxz:3:fp32 dxz:5:fp64 dyz:5:fp64" \
TRIALS=${TRIALS:-3} NOW=all sh results/h100/parity/parity.sh "$db" > "$o/parity4.md" 2> "$o/parity4.err"
echo "parity: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$o/summary3.txt"
