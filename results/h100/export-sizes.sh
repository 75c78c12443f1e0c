#!/bin/sh
# export-sizes.sh: the --all-sizes export against the single 512^3 export at
# sizes no sweep recorded, on the GPU machine from the repository root after
# `make` (nvcc needed):
#   sh results/h100/export-sizes.sh [DB] [LAUNCHES] > /tmp/export-sizes.md
# For xyz fp32 R = 4 and R = 8, iso3dfd fp32 R = 8 and xyz fp64 R = 8: both
# exports of DB (default results/h100/fdtune.db) are built with nvcc into
# tests/export_main.cu, validated against its CPU reference at each size and
# timed there (median of LAUNCHES launches, 50 by default, after two
# warm-ups, with events). Prints a markdown table for results/h100/sizes.md.
# ARCH (default sm_90) is nvcc's -arch; SIZES the sizes (default 800x400x200
# 384x384x192); PROBLEMS the problems as family:radius:precision (default the
# four above).
set -eu
db=${1:-results/h100/fdtune.db}
reps=${2:-50}
arch=${ARCH:-sm_90}
sizes=${SIZES:-800x400x200 384x384x192}
problems=${PROBLEMS:-xyz:4:fp32 xyz:8:fp32 iso3dfd:8:fp32 xyz:8:fp64}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PATH=$PATH:/usr/local/cuda/bin

# build DIR EXPORT-ARGS...: export as k into DIR and build DIR/ex
build() {
	d=$1
	shift
	./fdtune export --db "$db" --device H100 --out "$d" --name k "$@" >/dev/null
	nvcc -O2 -arch="$arch" -I"$d" tests/export_main.cu "$d/k.cu" -o "$d/ex"
}

# gbs OUT: the GB/s of export_main's timing line
gbs() { sed -n 's/^time .* ms, \([0-9.]*\) GB\/s.*/\1/p' "$1"; }

echo "| problem | size | --all-sizes: configuration of | GB/s | single 512³ export GB/s | ratio |"
echo "|---|---|---|---|---|---|"
for p in $problems; do
	IFS=: read -r f r pr <<-EOF
	$p
	EOF
	build "$tmp/a" -f "$f" -r "$r" --precision "$pr" --all-sizes
	build "$tmp/s" -f "$f" -r "$r" --precision "$pr" -n 512
	for n in $sizes; do
		set -- $(echo "$n" | tr x ' ')
		"$tmp/a/ex" "$1" "$2" "$3" --time "$reps" > "$tmp/a.out"
		"$tmp/s/ex" "$1" "$2" "$3" --time "$reps" > "$tmp/s.out"
		from=$(sed -n 's/.* runs .* (\(.*\))$/\1/p' "$tmp/a.out")
		a=$(gbs "$tmp/a.out")
		s=$(gbs "$tmp/s.out")
		ratio=$(awk -v a="$a" -v s="$s" 'BEGIN { printf "%.2f", a / s }')
		echo "| $f $pr R = $r | $n | $from | $a | $s | $ratio |"
	done
done
