#!/bin/sh
# export-check.sh: issue 13's export acceptance on the GPU machine, from the
# repository root after `make` (nvcc needed):
#   sh results/h100/export-check.sh [DB]
# For each problem below, `fdtune export` of its best at 512^3 (the kernel
# and NAME_launch, which gives the ring's dynamic LDS and opts in above
# 48 KiB) is built with nvcc into tests/export_main.cu, then validated at
# 512^3 and at 61x37x29 (random input, poisoned output, halo checked) and
# timed at 512^3 (median of 50 launches). Prints one line per run.
set -eu
db=${1:-results/h100/fdtune.db}
arch=${ARCH:-sm_90}
problems=${PROBLEMS:-xyz:8:fp32 xyz:8:fp64 iso3dfd:8:fp32 xyz:4:fp32 xyz:4:fp64}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PATH=$PATH:/usr/local/cuda/bin
for p in $problems; do
	IFS=: read -r f r pr <<-EOF
	$p
	EOF
	./fdtune export --db "$db" --device H100 --out "$tmp" --name k -f "$f" -r "$r" \
		--precision "$pr" -n 512 >/dev/null
	lds=$(sed -n 's/.*<<<grid, block, \([0-9]*\),.*/\1/p' "$tmp/k.cu")
	nvcc -O2 -arch="$arch" -I"$tmp" tests/export_main.cu "$tmp/k.cu" -o "$tmp/ex"
	for n in "512 512 512 --time 50" "61 37 29"; do
		# shellcheck disable=SC2086
		out=$("$tmp/ex" $n 2>&1) || out="$out FAILED (exit $?)"
		printf '%s R=%s %s, %s bytes of dynamic LDS, %s: %s\n' "$f" "$r" "$pr" "$lds" \
			"$n" "$(echo "$out" | tr '\n' ' ')"
	done
done
