#!/bin/sh
# r8zu.sh: issue 24, v29's second call. tma.sh found xyz fp32 R = 8 at 512^3
# 9% faster with zu 4 and pf 1 (a pair no earlier sweep of it had run) than
# its record (zu 3, pf 2). Here, on DB (tma.sh's database):
#  1. make sweep's runs (makesweep/fdtune.db) merged in, so that its shapes
#     seed the transfer search;
#  2. xyz R = 8 fp32 swept around that pair at 512^3 and the three sizes of
#     issue 24's table (zu 4..8, pf 0 and 1, nt 0 and 1, by 4 and 8, each
#     size's windows), and fp64 R = 8 at 512^3;
#  3. the 3 fastest records of those problems and of xyz R = 4 fp32 512^3
#     (make sweep's merged runs among them) timed again (--recheck 3);
#  4. the default strategy (transfer, 2%) at 384x384x192 and 800x240x160, in a
#     copy of DB: sizes no sweep of results/h100/fdtune.db has seen (their
#     exhaustive sweeps are in results/h100/newsizes/, another database);
#  5. ncu: the new R = 8 best against the old record;
#  6. parity: the xyz R = 8 fp32 exports (512^3 and --all-sizes) against
#     their records (parity/parity.sh).
# On the GPU machine from the repository root after `make`:
#   OUT=DIR sh results/h100/r8zu.sh DB
# Every step writes into DIR as it ends.
set -u
db=${1:?usage: r8zu.sh DB}
o=${OUT:-/tmp/r8zu}
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
s8="-r 8 -p vec=4 -p bx=32 -p by=4,8 -p ypt=2 -p lds=2 -p nt=0,1 -p pf=0,1 -p zu=4,5,6,7,8"
# shellcheck disable=SC2086
sw r8-512 -n 512 $s8 -p nw=512
# shellcheck disable=SC2086
sw r8-1000 -n 1000x300x129 $s8 -p nw=48,64,129
# shellcheck disable=SC2086
sw r8-640 -n 640x480x400 $s8 -p nw=100,200,400
# shellcheck disable=SC2086
sw r8-256 -n 256 $s8 -p nw=64,128,256
sw r8d-512 -n 512 -r 8 --precision fp64 -p vec=2 -p bx=32 -p by=4,8 -p ypt=2 -p lds=2 -p nw=512 \
	-p nt=0,1 -p pf=0,1 -p zu=4,5,6,8
printf 'xyz 8 512\nxyz 8 1000x300x129\nxyz 8 640x480x400\nxyz 8 256\nxyz 8 512 fp64\nxyz 4 512\n' > /tmp/re.plan
t0=$(date +%s)
timeout 120 ./fdtune sweep -q --db "$db" --plan /tmp/re.plan --recheck 3 > "$o/recheck.log" 2>&1
log "recheck 3: exit $? in $(( $(date +%s) - t0 )) s"
for p in "-r 8 -n 512" "-r 8 -n 1000x300x129" "-r 8 -n 640x480x400" "-r 8 -n 256" \
	"-r 8 -n 512 --precision fp64" "-r 4 -n 512"; do
	# shellcheck disable=SC2086
	log "best xyz $p: $(./fdtune best --db "$db" -f xyz $p | tail -1 | cut -c24-)"
done
for n in 384x384x192 800x240x160; do
	cp "$db" /tmp/n.db
	t0=$(date +%s)
	timeout 60 ./fdtune sweep -q --db /tmp/n.db -n "$n" > "$o/transfer-$n.log" 2>&1
	log "default strategy at $n: exit $? in $(( $(date +%s) - t0 )) s"
	grep -E 'configurations in|strategy|transfer' "$o/transfer-$n.log" >> "$o/summary.txt"
	log "best at $n: $(./fdtune best --db /tmp/n.db -f xyz -r 4 -n "$n" | tail -1 | cut -c24-)"
done
met=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread
met=$met,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__bytes.sum
met=$met,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
met=$met,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
met=$met,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
met=$met,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
met=$met,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio
met=$met,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio
met=$met,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
prof() {        # prof NAME ARGS: one configuration under ncu
	name=$1; shift
	timeout 60 ncu --clock-control none --kernel-name fdt_kernel --launch-skip 3 --launch-count 1 \
		--metrics "$met" ./fdtune sweep -q --db /tmp/prof-$name.db -n 512 "$@" > "$o/ncu-$name.txt" 2>&1
	log "ncu $name: exit $?"
	grep -E 'gpu__time|inst_executed|registers|issue_active|dram__bytes|stalled' "$o/ncu-$name.txt" |
		sed "s/^ */  /" >> "$o/summary.txt"
}
r8="-r 8 -p vec=4 -p bx=32 -p by=8 -p ypt=2 -p lds=2 -p nw=512 -p nt=1"
# shellcheck disable=SC2086
prof r8-zu3-pf2 $r8 -p pf=2 -p zu=3
# shellcheck disable=SC2086
prof r8-zu4-pf1 $r8 -p pf=1 -p zu=4
t0=$(date +%s)
ROWS_ONLY="xyz:8:fp32" SIZES="xyz:8:fp32" timeout 200 sh results/h100/parity/parity.sh "$db" \
	> "$o/parity-v29.md" 2> "$o/parity-v29.err"
log "parity xyz R=8 fp32: exit $? in $(( $(date +%s) - t0 )) s"
