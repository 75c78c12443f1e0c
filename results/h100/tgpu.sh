#!/bin/sh
# tgpu.sh: the GPU tests (build/t_gpu) one case at a time, each under a time
# limit and written into DIR as it ends, so that one device call of 10
# minutes returns what it ran: on the GPU machine from the repository root,
# with .device's packages unpacked (cmocka among them):
#   OUT=DIR sh results/h100/tgpu.sh CASE...
set -u
o=${OUT:-/tmp/tgpu}
mkdir -p "$o"
make -j"$(nproc)" fdtune build/t_gpu build/t_example > "$o/make.log" 2>&1 || { tail -20 "$o/make.log"; exit 1; }
for c in "$@"; do
	t0=$(date +%s)
	FDTUNE="$PWD/fdtune" ROOT="$PWD" RESULTS_DB="$PWD/results/h100/fdtune.db" T_ONLY="$c" \
		timeout "${LIMIT:-240}" build/t_gpu > "$o/$c.log" 2>&1
	echo "$c: exit $? in $(( $(date +%s) - t0 )) s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$o/$c.log" | tr -s ' ' | tr '\n' ' ')" | tee -a "$o/tgpu.txt"
done
