#!/bin/sh
# devices0.sh: issue 25 on a machine of one GPU (no machine of several was
# lent): a plan of 4 problems swept with --devices 0 (the multi-GPU path:
# one worker process a GPU), killed with SIGKILL midway, run again, and the
# database checked: every configuration recorded once, the plan finished.
#   sh results/h100/devices0.sh DIR  (GPU machine, repository root, after make)
# leaves the database in DIR/p.db, to be checked with sqlite3 where it is.
set -u
d=${1:?usage: devices0.sh DIR}
mkdir -p "$d"
printf 'xyz 4 256\nxyz 8 256\niso3dfd 8 256\nxyz 4 512\n' > "$d/plan"
args="--plan $d/plan -q --db $d/p.db --devices 0 -s exhaustive -p vec=2,4 -p bx=32,64 -p by=4,8 -p ypt=1,2 -p nw=64,192"
./fdtune sweep $args > "$d/log1" 2>&1 &
pid=$!
sleep 25
kill -9 $pid
wait $pid 2>/dev/null
pkill -9 -f "$d/p.db" 2>/dev/null   # its workers
sleep 1
first=$(./fdtune best --db "$d/p.db" --all --csv 2>/dev/null | wc -l)
t0=$(date +%s)
./fdtune sweep $args > "$d/log2" 2>&1
rc=$?
echo "killed after 25 s with $first lines of ok runs; the rerun: exit $rc in $(( $(date +%s) - t0 )) s"
tail -3 "$d/log2"
./fdtune best --db "$d/p.db" | cut -c1-60
echo "runs: $(./fdtune best --db "$d/p.db" --all | wc -l) ranked lines"
