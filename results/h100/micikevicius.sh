#!/bin/sh
# micikevicius.sh: the sweeps of issue 4's Micikevicius part on the GPU
# machine, from the repository root after `make`:
#   sh results/h100/micikevicius.sh DB [R]
# At radius R (default 4), 512^3, fp32, every configuration validated: the
# x-stencil through shared memory (xs: one thread per output or per input,
# 64 against 256-thread blocks), the marching y and z stencils with their
# unroll factor (ym, zm), the single-pass mixed derivatives (dxy, dxz, dyz)
# and the first derivatives whose pairs make the two-pass ones (d1x, d1y,
# d1z). Resumable.
set -eu
db=$1
r=${2:-4}
for f in xs ym zm dxy dxz dyz d1x d1y d1z; do
	./fdtune sweep --db "$db" -f $f -r "$r" -n 512 -q
done
