#!/bin/sh
# cold.sh: issue 33's cold compiles with nw a launch parameter (xyz's five nw
# share one build, tuner/sweep/tn_pool.c): `make sweep`'s space (xyz R = 4,
# 512^3, fp32, the default 5400 configurations) compiled only, from an empty
# compile cache, on every core: this fdtune, then (BASE=1) the one before
# (OLD, with its templates), each a line of cold.tsv as it ends. On the GPU
# machine from the repository root after `make`:
#   OUT=DIR [OLD=path/fdtune OLDT=path/templates] sh results/h100/nw/cold.sh
set -u
o=${OUT:-/tmp/cold}
mkdir -p "$o"
[ -e "$o/cold.tsv" ] || printf 'what\tconfigs\twall_s\tcfg_per_s\tcompiles\tcores\n' > "$o/cold.tsv"
run() {         # run NAME FDTUNE [TEMPLATES]
	c=$(mktemp -d)
	t0=$(date +%s.%N)
	if [ -n "${3:-}" ]; then
		FDTUNE_CACHE=$c FDTUNE_TEMPLATES=$3 "$2" sweep --compile-only -r 4 -n 512 --db "$o/$1.db" \
			> "$o/$1.log" 2>&1
	else
		FDTUNE_CACHE=$c "$2" sweep --compile-only -r 4 -n 512 --db "$o/$1.db" > "$o/$1.log" 2>&1
	fi
	rc=$?
	t1=$(date +%s.%N)
	n=$(grep -oE '[0-9]+ configurations in' "$o/$1.log" | head -1 | cut -d' ' -f1)
	k=$(ls "$c" | grep -c 'bin$')
	awk -v a="$1" -v n="$n" -v t0="$t0" -v t1="$t1" -v k="$k" -v c="$(nproc)" \
		'BEGIN { printf "%s\t%s\t%.1f\t%.1f\t%s\t%s\n", a, n, t1 - t0, n / (t1 - t0), k, c }' \
		>> "$o/cold.tsv"
	echo "$1: exit $rc"
	rm -rf "$c"
}
run new ./fdtune
[ -z "${OLD:-}" ] || run old "$OLD" "${OLDT:-}"
