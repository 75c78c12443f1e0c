#!/bin/sh
# recheck.sh: times again, with fdtune sweep --recheck, the K (3) fastest
# records of every problem of issue 22's parity table (parity.sh: the rows of
# issue 13's table at 512^3, and the --all-sizes problems at each size they
# were recorded) on the GPU machine, from the repository root after `make`:
#   sh results/h100/parity/recheck.sh [DB]
# (ROWS_ONLY, SIZES and AT take subsets, as in parity.sh)
# A configuration's record is its newest ok run, so the new runs (each a
# contender timed on 3 placements of its fields) replace the records made
# before --places, each one placement's time, lucky or not.
set -eu
db=${1:-results/h100/fdtune.db}
k=${K:-3}
. results/h100/highorder-rows.sh
sizes=${SIZES-"xyz:4:fp32 xyz:8:fp32 xyz:8:fp64 iso3dfd:8:fp32"}
at=${AT:-"128x128x64 256x256x256 1000x300x129 640x480x400"}
plan=$(mktemp)
trap 'rm -f "$plan"' EXIT
for p in ${ROWS_ONLY-$ROWS}; do
	echo "$p" | awk -F: '{ print $1, $2, "512", $3 }'
done >"$plan"
for p in $sizes; do
	for n in $at; do
		echo "$p" | awk -F: -v n="$n" '{ print $1, $2, n, $3 }'
	done
done >>"$plan"
echo "recheck.sh: the $k fastest records of $(wc -l <"$plan") problems, in $db" >&2
./fdtune sweep --db "$db" --plan "$plan" --recheck "$k" -q
