#!/bin/sh
# placement.sh: does a kernel's time depend on where in device memory its
# fields lie? (gap.sh: fdtune's own timing of iso3dfd R = 8 at 640x480x400
# is bimodal from one process to the next, 0.799 or 0.822 ms, and so is the
# export's.) For each problem, the single export of its best, built with
# nvcc into tests/export_main.cu, timed as fdtune times in PROCS (3)
# processes, each on PLACES (6) placements of its fields: the fields
# allocated anew, elsewhere, before each median after the first.
# On the GPU machine from the repository root after `make`:
#   sh results/h100/parity/placement.sh [DB]
set -u
db=${1:-results/h100/fdtune.db}
procs=${PROCS:-3}
places=${PLACES:-6}
probs=${PROBS:-iso3dfd:8:640x480x400 xyz:4:512x512x512}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PATH=$PATH:/usr/local/cuda/bin
n=0
for q in $probs; do
	n=$((n + 1))
	IFS=: read -r f r sz <<-EOF
	$q
	EOF
	d=$tmp/$n
	mkdir -p "$d"
	{ ./fdtune export --db "$db" --device H100 -f "$f" -r "$r" -n "$sz" --out "$d" --name k \
		>"$d/err" 2>&1 &&
	  nvcc -O2 -arch=sm_90 -Xcompiler -fopenmp -I"$d" tests/export_main.cu "$d/k.cu" \
		-o "$d/ex" -lgomp >>"$d/err" 2>&1; } &
done
wait
n=0
for q in $probs; do
	n=$((n + 1))
	IFS=: read -r f r sz <<-EOF
	$q
	EOF
	d=$tmp/$n
	[ -x "$d/ex" ] || { echo "$q: export or build FAILED: $(head -c 300 "$d/err")"; continue; }
	echo "$f R=$r $sz: $(sed -n '4s/.*\(run [0-9]*\), .*: \([0-9.]*\) ms,.*/\1, recorded \2 ms/p' "$d/k.h")"
	for p in $(seq "$procs"); do
		# shellcheck disable=SC2046
		echo "  process $p: $("$d/ex" $(echo "$sz" | tr x ' ') --time fdtune --placements "$places" 2>&1 |
			sed -n 's/^\(time\|placement [0-9]*\) .*: median \([0-9.]*\) ms.*/\2/p' | tr '\n' ' ')"
	done
done
