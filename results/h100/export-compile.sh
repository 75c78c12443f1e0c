#!/bin/sh
# export-compile.sh: issue 13's export acceptance on the CPU, from the
# repository root after `make` (nvcc and hipcc needed; .ci/deps.sh test
# installs hipcc):   sh results/h100/export-compile.sh [DB]
# For the best H100 run of each problem of issue 13's table at 512^3,
# `fdtune export` writes NAME.cu and NAME.h, and the source is compiled with
# nvcc for sm_90 and with hipcc for gfx90a. Prints one line per problem: the
# dynamic LDS its launch gives, and each compiler's verdict. Exit 1 if any
# export or compile failed.
set -u
db=${1:-results/h100/fdtune.db}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PATH=$PATH:/usr/local/cuda/bin
bad=0
. results/h100/highorder-rows.sh
for p in $ROWS; do
	IFS=: read -r f r pr <<-EOF
	$p
	EOF
	if ! ./fdtune export --db "$db" --device H100 --out "$tmp" --name k -f "$f" -r "$r" \
	    --precision "$pr" -n 512 >/dev/null 2>"$tmp/err"; then
		echo "$f R=$r $pr: export failed: $(cat "$tmp/err")"
		bad=1
		continue
	fi
	lds=$(sed -n 's/.*<<<grid, block, \([0-9]*\),.*/\1/p' "$tmp/k.cu" | head -1)
	nv=ok; hip=ok
	nvcc -arch=sm_90 -c "$tmp/k.cu" -o "$tmp/k.o" 2>"$tmp/nv" || { nv=FAILED; bad=1; }
	hipcc --offload-arch=gfx90a -Wno-pass-failed -c "$tmp/k.cu" -o "$tmp/k.hip.o" \
		2>"$tmp/hip" || { hip=FAILED; bad=1; }
	echo "$f R=$r $pr: ${lds:-0} bytes of dynamic LDS; nvcc sm_90 $nv, hipcc gfx90a $hip"
done
exit $bad
