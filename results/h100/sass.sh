#!/bin/sh
# sass.sh: instruction counts of one configuration's SASS (the static code,
# not executed counts), where cuobjdump is (the GPU machine), after `make`:
#   sh results/h100/sass.sh [ARCH] -- FDTUNE-GEN-ARGS...
# e.g. sh results/h100/sass.sh -- -r 8 -p lds=2 -p vec=2 -p zu=2
# Prints one line: total instructions and MOV, FFMA, FADD, LDS, LDGSTS, STG
# counts (DFMA, DADD for fp64).
set -eu
arch=sm_90
[ "$1" = -- ] || { arch=$1; shift; }
shift
PATH=$PATH:/usr/local/cuda/bin
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
./fdtune gen "$@" > "$t/k.cu"
nvcc -cubin -arch="$arch" -O3 -o "$t/k.cubin" "$t/k.cu"
cuobjdump -sass "$t/k.cubin" | grep -E '^ +/\*[0-9a-f]{4}\*/' > "$t/k.sass"
c() { grep -cE "$1" "$t/k.sass" || true; }
echo "total $(wc -l < "$t/k.sass") MOV $(c '[[:space:]]MOV[[:space:]]') FFMA $(c FFMA) FADD $(c FADD)" \
     "DFMA $(c DFMA) DADD $(c DADD) LDS $(c '[[:space:]]LDS') LDGSTS $(c LDGSTS) STG $(c STG)"
