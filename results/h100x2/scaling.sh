#!/bin/sh
# scaling.sh: issue 25 on a machine of several GPUs: the same plan of 4
# problems swept exhaustively on 1 GPU and on N GPUs (`--devices 0,..,N-1`)
# of one host, the wall clock of each timed by the shell, then a kill -9 of
# the N-GPU plan and its rerun. On the GPU machine from the repository root
# after `make`:
#   sh results/h100x2/scaling.sh DIR [N]
# DIR receives the databases (cold.db, one.db, many.db, kill.db), the logs
# and times.txt. Runs, in this order, each into a fresh database:
#   cold: N GPUs, empty compile cache (configurations/s and compile share)
#   one:  1 GPU (no --devices), warm cache
#   many: N GPUs, warm cache
#   kill: N GPUs, warm cache, SIGKILL after KILL_AFTER s (25), then rerun
set -u
d=${1:?usage: scaling.sh DIR [N]}
n=${2:-2}
mkdir -p "$d"
devs=$(seq -s, 0 $((n - 1)))
cat > "$d/plan" <<EOF
xyz 4 512
xyz 8 512
iso3dfd 8 512
xyz 4 640x480x400
EOF
# a third of the default space (vec 4): 1800 configurations a problem
space="-s exhaustive -p vec=4"
export FDTUNE_CACHE="$d/cache"
rm -rf "$FDTUNE_CACHE"
now() { date +%s.%N; }
run() {         # run NAME ARGS...: one sweep of the plan, timed
	name=$1; shift
	rm -f "$d/$name.db"
	t0=$(now)
	./fdtune sweep --plan "$d/plan" -q --db "$d/$name.db" $space "$@" > "$d/$name.log" 2>&1
	rc=$?
	t1=$(now)
	echo "$name $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s, exit $rc, args: $*" | tee -a "$d/times.txt"
	grep -E 'configurations in|copy bandwidth' "$d/$name.log" | sed "s/^/  $name: /"
}
nvidia-smi -L
run cold --devices "$devs"
run one
run many --devices "$devs"
# kill -9 of the N-GPU plan midway, and the same command again
rm -f "$d/kill.db"
./fdtune sweep --plan "$d/plan" -q --db "$d/kill.db" $space --devices "$devs" > "$d/kill1.log" 2>&1 &
pid=$!
sleep "${KILL_AFTER:-25}"
kill -9 $pid
wait $pid 2>/dev/null
pkill -9 -f "$d/kill.db" 2>/dev/null    # its workers
sleep 1
t0=$(now)
./fdtune sweep --plan "$d/plan" -q --db "$d/kill.db" $space --devices "$devs" > "$d/kill2.log" 2>&1
rc=$?
echo "kill: SIGKILL after ${KILL_AFTER:-25} s, the rerun $(echo "$t0 $(now)" | awk '{ printf "%.1f", $2 - $1 }') s, exit $rc" | tee -a "$d/times.txt"
grep -E 'configurations in|interrupted|already recorded' "$d/kill2.log" | head -8
for b in one many kill; do
	echo "== best of $b"
	./fdtune best --db "$d/$b.db" | cut -c1-200
done
