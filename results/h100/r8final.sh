#!/bin/sh
# r8final.sh: issue 24, v29's third call: r8zu.sh's steps that make the
# database's records, again (the second call's database did not come back:
# the device returns at most 8 files, and r8zu.sh wrote 16), on DB (tma.sh's
# database): make sweep's runs merged in; xyz fp32 and fp64 R = 8 at 512^3
# swept around zu 4..8 with pf 0 and 1; the 3 fastest records of those and of
# xyz R = 4 fp32 512^3 timed again (--recheck 3); the default strategy at
# 384x384x192 and 800x240x160 in a copy of DB; the exports of the three
# problems against their records (parity/parity.sh). On the GPU machine from
# the repository root after `make`:
#   OUT=DIR sh results/h100/r8final.sh DB
# DIR receives the logs and summary.txt as each step ends.
set -u
db=${1:?usage: r8final.sh DB}
o=${OUT:-/tmp/r8final}
mkdir -p "$o"
log() { echo "$*" | tee -a "$o/summary.txt"; }
xz -dc results/h100/makesweep/fdtune.db.xz > /tmp/makesweep.db
./fdtune merge --db "$db" /tmp/makesweep.db > "$o/merge.log" 2>&1
log "merge make sweep: exit $? $(tail -1 "$o/merge.log")"
sw() {          # sw NAME ARGS: an exhaustive sweep, forced
	name=$1; shift
	t0=$(date +%s)
	timeout 120 ./fdtune sweep -q --db "$db" --force -s exhaustive "$@" > "$o/$name.log" 2>&1
	log "$name: exit $? in $(( $(date +%s) - t0 )) s: $*"
	grep -E 'configurations in|done' "$o/$name.log" >> "$o/summary.txt"
}
sw r8-512 -n 512 -r 8 -p vec=4 -p bx=32 -p by=4,8 -p ypt=2 -p lds=2 -p nt=0,1 -p pf=0,1 \
	-p zu=4,5,6,7,8 -p nw=512
sw r8d-512 -n 512 -r 8 --precision fp64 -p vec=2 -p bx=32 -p by=4,8 -p ypt=2 -p lds=2 -p nw=512 \
	-p nt=0,1 -p pf=0,1 -p zu=4,5,6,8
printf 'xyz 8 512\nxyz 8 512 fp64\nxyz 4 512\n' > /tmp/re.plan
t0=$(date +%s)
timeout 120 ./fdtune sweep -q --db "$db" --plan /tmp/re.plan --recheck 3 > "$o/recheck.log" 2>&1
log "recheck 3: exit $? in $(( $(date +%s) - t0 )) s"
for p in "-r 8 --precision fp32" "-r 8 --precision fp64" "-r 4 --precision fp32"; do
	# shellcheck disable=SC2086
	log "best xyz $p 512: $(./fdtune best --db "$db" -f xyz -n 512 $p | tail -1 | cut -c24-)"
done
for n in 384x384x192 800x240x160; do
	cp "$db" /tmp/n.db
	t0=$(date +%s)
	timeout 60 ./fdtune sweep -q --db /tmp/n.db -n "$n" > "$o/transfer-$n.log" 2>&1
	log "default strategy at $n: exit $? in $(( $(date +%s) - t0 )) s"
	log "best at $n: $(./fdtune best --db /tmp/n.db -f xyz -r 4 -n "$n" | tail -1 | cut -c24-)"
done
t0=$(date +%s)
ROWS_ONLY="xyz:8:fp32 xyz:8:fp64 xyz:4:fp32" SIZES="" timeout 200 sh results/h100/parity/parity.sh \
	"$db" > "$o/parity-v29.md" 2> "$o/parity-v29.err"
log "parity xyz R=8 fp32, fp64 and R=4 fp32 at 512^3: exit $? in $(( $(date +%s) - t0 )) s"
