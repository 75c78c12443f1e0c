#!/bin/sh
# throughput.sh: sweep throughput of issue 5 on the GPU machine, from the
# repository root after `make`:  sh results/h100/throughput.sh [DIR]
# The default xyz space for R = 4, 512^3, fp32, swept twice into fresh
# databases: cold (empty compile cache) and warm (the cache the cold run
# filled). Every configuration is validated and timed both times; the
# summary lines of fdtune sweep give configurations per second, split into
# compile, validate and time. DIR (default /tmp/fdt_tp) holds the cache and
# the databases; logs go to DIR/cold.log and DIR/warm.log.
set -eu
dir=${1:-/tmp/fdt_tp}
rm -rf "$dir"
mkdir -p "$dir"
export FDTUNE_CACHE="$dir/cache"
nproc
./fdtune sweep --db "$dir/cold.db" -r 4 -n 512 -q 2>&1 | tee "$dir/cold.log"
./fdtune sweep --db "$dir/warm.db" -r 4 -n 512 -q 2>&1 | tee "$dir/warm.log"
for t in cold warm; do
	sqlite3 "$dir/$t.db" "select status, count(*) from runs group by status" 2>/dev/null || true
done
