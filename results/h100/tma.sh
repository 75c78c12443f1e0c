#!/bin/sh
# tma.sh: issue 24, "addresses off the computing warps" and "fewer queue
# moves": tma 1 (the lanes of warp 0 copy each plane's tile rows with the
# bulk copy engine onto an mbarrier; the computing threads issue no copies)
# against tma 0, and zu up to 8, around the records at 512^3 of xyz fp32
# R = 8 and R = 4, xyz fp64 R = 8 and iso3dfd fp32 R = 8. Every
# configuration is swept again (--force) into DB, so that tma 0 (each record's
# own kernel among them) and tma 1 are timed in one process on one board.
# First t_gpu's bulk_copies validates tma at odd sizes. Then ncu counts the
# instructions of the R = 8 records against their tma 1 twins. On the GPU
# machine from the repository root after `make fdtune build/t_gpu`:
#   OUT=DIR sh results/h100/tma.sh DB
# Every step writes into DIR as it ends (a time limit loses only the rest).
set -u
db=${1:?usage: tma.sh DB}
o=${OUT:-/tmp/tma}
mkdir -p "$o"
log() { echo "$*" | tee -a "$o/summary.txt"; }
T_ONLY=bulk_copies timeout 200 ./build/t_gpu > "$o/t_gpu.log" 2>&1
log "t_gpu bulk_copies: exit $? ($(grep -cE 'OK|PASSED' "$o/t_gpu.log") ok lines)"
sw() {          # sw NAME ARGS: one exhaustive sweep at 512^3, forced
	name=$1; shift
	t0=$(date +%s)
	timeout 150 ./fdtune sweep -q --db "$db" --force -s exhaustive -n 512 "$@" > "$o/$name.log" 2>&1
	log "$name: exit $? in $(( $(date +%s) - t0 )) s: $*"
	grep -E 'configurations in|done' "$o/$name.log" >> "$o/summary.txt"
}
sw xyz8 -r 8 -p vec=4 -p bx=32,64 -p by=4,8 -p ypt=2 -p lds=2 -p nw=512 -p nt=1 -p pf=1,2 \
	-p zu=3,4,6,8 -p tma=0,1
sw iso8 -f iso3dfd -r 8 -p vec=4 -p bx=32,64 -p by=4,8 -p ypt=1 -p lds=2 -p nw=512 -p nt=1 \
	-p pf=0,1 -p zu=4,6,8 -p wr=1 -p ku=0 -p mb=0 -p pad=0 -p tma=0,1
sw xyz8d -r 8 --precision fp64 -p vec=2 -p bx=32 -p by=4,8 -p ypt=2 -p lds=2 -p nw=512 \
	-p nt=0,1 -p pf=1 -p zu=3,4,6,8 -p tma=0,1
sw xyz4 -r 4 -p vec=4 -p bx=64 -p by=4,8 -p ypt=2,4 -p lds=2 -p nw=192,512 -p nt=0 -p pf=2 \
	-p zu=2,4 -p tma=0,1
sw xyz4rec -r 4 -p vec=2 -p bx=64 -p by=8 -p ypt=2 -p lds=2 -p nw=192 -p nt=0 -p pf=2 -p zu=2
# ncu: the R = 8 records and their tma 1 twins, the counters of NOTES v28
met=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread
met=$met,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__bytes.sum
met=$met,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
met=$met,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
met=$met,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
met=$met,sm__sass_thread_inst_executed_op_ffma_pred_on.sum
prof() {        # prof NAME ARGS: one configuration under ncu
	name=$1; shift
	timeout 60 ncu --clock-control none --kernel-name fdt_kernel --launch-skip 3 --launch-count 1 \
		--metrics "$met" ./fdtune sweep -q --db /tmp/prof-$name.db -n 512 "$@" > "$o/ncu-$name.txt" 2>&1
	log "ncu $name: exit $?"
	grep -E 'gpu__time|inst_executed|registers|issue_active|dram__bytes|stalled|ffma' "$o/ncu-$name.txt" |
		sed "s/^ */  /" >> "$o/summary.txt"
}
r8="-r 8 -p vec=4 -p bx=32 -p by=8 -p ypt=2 -p lds=2 -p nw=512 -p nt=1 -p pf=2 -p zu=3"
iso="-f iso3dfd -r 8 -p vec=4 -p bx=64 -p by=4 -p ypt=1 -p lds=2 -p nw=512 -p nt=1 -p pf=0 -p zu=4 -p wr=1"
# shellcheck disable=SC2086
prof xyz8-tma0 $r8 -p tma=0
# shellcheck disable=SC2086
prof xyz8-tma1 $r8 -p tma=1
# shellcheck disable=SC2086
prof iso8-tma0 $iso -p tma=0
# shellcheck disable=SC2086
prof iso8-tma1 $iso -p tma=1
# (as run on 2026-11-25 the loop named no family and precision, so each
# "== best" line of tma/summary.txt is the last row of every family and
# precision at that R, another family's; results/NOTES.md v29 reads the runs)
for a in "-f xyz -r 8 --precision fp32" "-f iso3dfd -r 8 --precision fp32" \
	"-f xyz -r 8 --precision fp64" "-f xyz -r 4 --precision fp32"; do
	# shellcheck disable=SC2086
	log "== best $a: $(./fdtune best --db "$db" -n 512 $a | tail -1 | cut -c24-)"
done
