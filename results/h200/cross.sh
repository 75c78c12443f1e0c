#!/bin/sh
# cross.sh: issue 26, on the H200 after run.sh: each H100 best (from
# results/h100/fdtune.db) and each H200 best (from DB) of the problems of
# run.sh, exported and run on this GPU in tests/export_main.cu (validated,
# timed as fdtune times); then the --all-devices export of the two databases
# merged, which must pick this device's own kernel.
#   sh results/h200/cross.sh DB
set -u
db=${1:?usage: cross.sh DB}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PATH=$PATH:/usr/local/cuda/bin
cp results/h100/fdtune.db "$tmp/both.db"
./fdtune merge --db "$tmp/both.db" "$db" >/dev/null || exit 1
copy=$(./fdtune devices --db "$db" | sed -n 's/.*copy bandwidth \([0-9.]*\) GB\/s.*/\1/p' | head -1)
echo "H200 copy bandwidth (fdtune): $copy GB/s"
echo "| problem | tuned on | run | recorded ms there | on this H200 ms | % of this H200's copy | build |"
echo "|---|---|---|---|---|---|---|"
for p in "xyz 4" "xyz 8" "iso3dfd 8"; do
	set -- $p
	for dev in H100 H200; do
		d=$tmp/$1$2$dev
		mkdir -p "$d"
		src=results/h100/fdtune.db
		[ $dev = H200 ] && src=$db
		./fdtune export --db "$src" --device $dev -f $1 -r $2 -n 512 --out "$d" --name k \
			>/dev/null 2>"$d/err" &&
		nvcc -O2 -arch=sm_90 -Xcompiler -fopenmp -I"$d" tests/export_main.cu "$d/k.cu" \
			-o "$d/ex" -lgomp >>"$d/err" 2>&1 || { echo "| $1 R=$2 | $dev | FAILED: $(head -c 300 "$d/err") |"; continue; }
		out=$("$d/ex" 512 512 512 --time fdtune 2>&1)
		ms=$(echo "$out" | sed -n 's/^time .*: median \([0-9.]*\) ms.*/\1/p')
		gbs=$(echo "$out" | sed -n 's/^time .* ms, \([0-9.]*\) GB\/s.*/\1/p')
		rec=$(sed -n 's/.*, run \([0-9]*\), for 512x512x512: \([0-9.]*\) ms.*/\1 \2/p' "$d/k.h")
		ok=$(echo "$out" | grep -c ': 0 bad points')
		which=$(echo "$out" | sed -n 's/^k_launch on .* runs the \([a-z]*\) .*/\1/p')
		set -- $1 $2 $rec
		echo "| $1 R=$2 | $dev | $3 | $4 | ${ms:-FAILED} | $(awk -v g="${gbs:-0}" -v c="$copy" 'BEGIN { printf "%.1f", 100 * g / c }') | $which$([ "$ok" = 1 ] || echo ', CHECK FAILED') |"
		set -- $1 $2
	done
	d=$tmp/$1$2all
	mkdir -p "$d"
	./fdtune export --db "$tmp/both.db" --all-devices -f $1 -r $2 -n 512 --out "$d" --name k \
		>"$d/out" 2>&1 &&
	nvcc -O2 -arch=sm_90 -I"$d" tests/export_main.cu "$d/k.cu" -o "$d/ex" >>"$d/out" 2>&1 &&
	echo "--all-devices $1 R=$2 on this GPU: $("$d/ex" 512 512 512 --time fdtune | grep 'runs\|^time' | tr '\n' ' ')"
done
