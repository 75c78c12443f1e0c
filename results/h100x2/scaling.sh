#!/bin/sh
# scaling.sh: issue 25 on a machine of several GPUs: the same plan of 4
# problems swept exhaustively over SPACE on 1 GPU and on N GPUs
# (`--devices 0,..,N-1`) of one host, the wall clock of each timed by the
# shell, then a kill -9 of the N-GPU plan and its rerun. On the GPU machine
# from the repository root after `make`:
#   sh results/h100x2/scaling.sh DIR [N] [PHASES]
# PHASES (default "cold one many kill") picks the runs, so that one device
# call of 10 minutes need not hold them all; each writes into DIR as it ends
# (times.txt, its log, its database), so a time limit loses only the run it
# cut. Each run goes into a fresh database:
#   cold: N GPUs, empty compile cache (configurations/s and compile share)
#   one:  1 GPU (no --devices), warm cache
#   many: N GPUs, warm cache
#   kill: N GPUs, warm cache, SIGKILL after KILL_AFTER s (20), then rerun
# The first attempt (2026-11-25) held the whole default space of vec 4
# (1800 configurations a problem) and all four runs in one call: it passed
# the call's 600 s and, writing only at its end, returned nothing.
set -u
d=${1:?usage: scaling.sh DIR [N] [PHASES]}
n=${2:-2}
phases=${3:-cold one many kill}
mkdir -p "$d"
devs=$(seq -s, 0 $((n - 1)))
cat > "$d/plan" <<EOF
xyz 4 512
xyz 8 512
iso3dfd 8 512
xyz 4 640x480x400
EOF
# a sixth of the default space: 900 configurations a problem of xyz, 384 of iso3dfd
space=${SPACE:--s exhaustive -p vec=4 -p bx=32}
export FDTUNE_CACHE="$d/cache"
now() { date +%s.%N; }
run() {         # run NAME ARGS...: one sweep of the plan, timed
	name=$1; shift
	rm -f "$d/$name.db"
	t0=$(now)
	# shellcheck disable=SC2086
	timeout "${LIMIT:-280}" ./fdtune sweep --plan "$d/plan" -q --db "$d/$name.db" $space "$@" \
		> "$d/$name.log" 2>&1
	rc=$?
	echo "$name $(echo "$t0 $(now)" | awk '{ printf "%.1f", $2 - $1 }') s, exit $rc, args: $*" >> "$d/times.txt"
	grep -E 'configurations in|copy bandwidth|references built|sweep [0-9]+ (failed|interrupted)' "$d/$name.log" | sed "s/^/  $name: /" >> "$d/times.txt"
}
kill_rerun() {
	rm -f "$d/kill.db"
	# shellcheck disable=SC2086
	./fdtune sweep --plan "$d/plan" -q --db "$d/kill.db" $space --devices "$devs" > "$d/kill1.log" 2>&1 &
	pid=$!
	sleep "${KILL_AFTER:-20}"
	kill -9 $pid
	wait $pid 2>/dev/null
	pkill -9 -f "$d/kill.db" 2>/dev/null    # its workers
	sleep 1
	t0=$(now)
	# shellcheck disable=SC2086
	timeout "${LIMIT:-280}" ./fdtune sweep --plan "$d/plan" -q --db "$d/kill.db" $space \
		--devices "$devs" > "$d/kill2.log" 2>&1
	rc=$?
	echo "kill: SIGKILL after ${KILL_AFTER:-20} s, the rerun $(echo "$t0 $(now)" | awk '{ printf "%.1f", $2 - $1 }') s, exit $rc" >> "$d/times.txt"
	grep -E 'configurations in|interrupted|already recorded' "$d/kill2.log" | head -8 >> "$d/times.txt"
}
nvidia-smi -L > "$d/gpus.txt" 2>&1
for p in $phases; do
	case $p in
	cold) rm -rf "$FDTUNE_CACHE"; run cold --devices "$devs" ;;
	one) run one ;;
	many) run many --devices "$devs" ;;
	kill) kill_rerun ;;
	*) echo "scaling.sh: unknown phase $p (cold, one, many, kill)" >&2; exit 2 ;;
	esac
done
cat "$d/times.txt"
