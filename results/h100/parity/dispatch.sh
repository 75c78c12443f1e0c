#!/bin/sh
# dispatch.sh: is an --all-sizes (or --all-devices --all-sizes) export slower
# than the single export of the same run at the same size? (NOTES v26: 1-3%
# at 70-290 µs in two calls of cross.sh.) On the GPU machine from the
# repository root after `make` (nvcc needed):
#   sh results/h100/parity/dispatch.sh [DB]
# Exports xyz fp32 R = 8 and iso3dfd fp32 R = 8 three ways (the single
# export at each size, --all-sizes, --all-devices --all-sizes of DB merged
# with results/h200/fdtune.db), builds each with nvcc into
# tests/export_main.cu, and times them interleaved, ROUNDS (5) rounds of one
# process each, as fdtune times; prints each process's median and, per
# way, the median of the rounds. PROBS (xyz iso3dfd) and SIZES (256
# 1000x300x129) choose the problems and sizes.
set -u
probs=${PROBS:-xyz iso3dfd}
sizes=${SIZES:-256 1000x300x129}
db=${1:-results/h100/fdtune.db}
rounds=${ROUNDS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PATH=$PATH:/usr/local/cuda/bin
cp "$db" "$tmp/both.db"
./fdtune merge --db "$tmp/both.db" results/h200/fdtune.db >/dev/null || exit 1
gpu=$(./fdtune devices | sed -n 's/^0: \(.*\)  arch .*/\1/p')
dev=H100
case $gpu in *H200*) dev=H200 ;; esac
build() {
	d=$tmp/$1
	shift
	mkdir -p "$d"
	{ ./fdtune export "$@" --out "$d" --name k >"$d/err" 2>&1 &&
	  nvcc -O2 -arch=sm_90 -Xcompiler -fopenmp -I"$d" tests/export_main.cu "$d/k.cu" -o "$d/ex" \
		-lgomp >>"$d/err" 2>&1; } &
}
for p in $probs; do
	for n in $sizes; do
		build "$p-$n-one" --db "$tmp/both.db" --device $dev -f $p -r 8 -n $n
	done
	build "$p-sizes" --db "$tmp/both.db" --device $dev -f $p -r 8 --all-sizes
	build "$p-all" --db "$tmp/both.db" --all-devices --all-sizes -f $p -r 8
done
wait
echo "$gpu: medians of $rounds processes, ms (each process timed as fdtune times)"
for p in $probs; do
	for n in $sizes; do
		case $n in *x*) sz=$(echo $n | tr x ' ') ;; *) sz="$n $n $n" ;; esac
		for w in one sizes all; do : > "$tmp/$w.t"; done
		for r in $(seq "$rounds"); do
			for w in one sizes all; do
				e=$tmp/$p-$w/ex
				[ $w = one ] && e=$tmp/$p-$n-one/ex
				[ -x "$e" ] || { echo "$p $n $w: build FAILED"; continue; }
				"$e" $sz --time fdtune 2>&1 | sed -n 's/^time .*: median \([0-9.]*\) ms.*/\1/p' >> "$tmp/$w.t"
			done
		done
		for w in one sizes all; do
			printf '%s R=8 %s %-6s %s  median %s\n' $p $n $w "$(tr '\n' ' ' < "$tmp/$w.t")" \
				"$(sort -n "$tmp/$w.t" | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }')"
		done
	done
done
