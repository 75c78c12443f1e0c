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
. results/h100/parity/singles.sh
build_singles "$db"
# one DIR F R SIZE: PROCS processes of DIR's program on PLACES placements
one() {
	echo "$2 R=$3 $4: $(sed -n '4s/.*\(run [0-9]*\), .*: \([0-9.]*\) ms,.*/\1, recorded \2 ms/p' "$1/k.h")"
	for p in $(seq "$procs"); do
		# shellcheck disable=SC2046
		echo "  process $p: $("$1/ex" $(echo "$4" | tr x ' ') --time fdtune --placements "$places" 2>&1 |
			sed -En 's/^(time|placement [0-9]*) .*: median ([0-9.]*) ms.*/\2/p' | tr '\n' ' ')"
	done
}
each_single one
