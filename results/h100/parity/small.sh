#!/bin/sh
# small.sh: where the 3% between xyz fp32 R = 8's export at 128x128x64 and
# its record comes from (parity-recheck.md), on the GPU machine from the
# repository root after `make` (nvcc and ncu needed):
#   sh results/h100/parity/small.sh [DB]
# (F, R, PREC and N take another problem: xyz, 8, fp32 and 128x128x64)
# The record's configuration (fdtune best) is exported alone and within
# --all-sizes, both built into tests/export_main.cu and timed as fdtune
# times (per launch, between two events) in 3 processes each, beside fdtune
# timing it again now; then ncu gives each launch's kernel duration alone
# (gpu__time_duration, no launch overhead) for the export and for fdtune.
set -u
db=${1:-results/h100/fdtune.db}
n=${N:-128x128x64}
PATH=$PATH:/usr/local/cuda/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
set -- $(echo "$n" | tr x ' ')
nx=$1 ny=$2 nz=$3
fam=${F:-xyz} rad=${R:-8} prec=${PREC:-fp32}
prob="-f $fam -r $rad --precision $prec -n $n"
# shellcheck disable=SC2086
p=$(./fdtune best --db "$db" --csv $prob | tr -d '\r' | sed -n '2s/.*"{\(.*\)}".*/\1/p' |
	tr -d '"' | tr ',' '\n' | sed 's/:/=/; s/^/-p /' | tr '\n' ' ')
case "$p" in *zu=*) ;; *) p="$p -p zu=1" ;; esac      # recorded before zu: its default
echo "record: $(./fdtune best --db "$db" $prob | sed -n 2p | tr -s ' ')"
for kind in one all; do
	a="-n $n"
	[ $kind = all ] && a=--all-sizes
	# shellcheck disable=SC2086
	./fdtune export --db "$db" --device H100 -f "$fam" -r "$rad" --precision "$prec" $a \
		--out "$tmp/$kind" --name k >/dev/null 2>&1 &&
	nvcc -O2 -arch=sm_90 -Xcompiler -fopenmp -I"$tmp/$kind" tests/export_main.cu \
		"$tmp/$kind/k.cu" -o "$tmp/$kind/ex" -lgomp || echo "export $kind FAILED"
done
for t in 1 2 3; do
	for kind in one all; do
		echo "export $kind, process $t: $("$tmp/$kind/ex" "$nx" "$ny" "$nz" --time fdtune \
			--placements 3 2>&1 | sed -En 's/^(time|placement [0-9]*) .*: median ([0-9.]*) ms.*/\2/p' |
			tr '\n' ' ')ms"
	done
	# shellcheck disable=SC2086
	echo "fdtune now, process $t: $(./fdtune sweep -q --db "$tmp/now$t.db" -s exhaustive $prob $p 2>&1 |
		grep -c .) lines; $(./fdtune best --db "$tmp/now$t.db" $prob | sed -n 2p | tr -s ' ' |
		cut -d' ' -f10-12) (ms, GB/s, %copy)"
done
# kernel durations alone: 40 launches of each, after 10
dur() {
	sed -n 's/.*gpu__time_duration.sum *[a-z]* *\([0-9.,]*\)$/\1/p' | tr -d , |
		sort -n | awk '{ a[NR] = $1 } END { printf "median %s, min %s, max %s (%d launches)", a[int((NR + 1) / 2)], a[1], a[NR], NR }'
}
echo "ncu, export one: $(ncu --clock-control none --metrics gpu__time_duration.sum \
	-k fdt_kernel --launch-skip 10 --launch-count 40 "$tmp/one/ex" "$nx" "$ny" "$nz" --time 60 2>&1 | dur)"
# shellcheck disable=SC2086
echo "ncu, fdtune: $(ncu --clock-control none --metrics gpu__time_duration.sum -k fdt_kernel \
	--launch-skip 10 --launch-count 40 ./fdtune sweep -q --db "$tmp/ncu.db" -s exhaustive \
	--no-race $prob $p 2>&1 | dur)"
