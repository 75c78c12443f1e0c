#!/bin/sh
# iso3dfd.sh: the iso3dfd sweeps of issue 4 on the GPU machine, from the
# repository root after `make`:  sh results/h100/iso3dfd.sh DB
# 1. The default space of the iso3dfd family at R = 8 (16th order), 512^3,
#    fp32: z register queues over nw planes with neighbours through L1
#    (lds 0) or an LDS tile (lds 1), and the fused xyz ring (lds 2) with the
#    wave store; block shape, vec, ypt, unroll, streaming stores, prefetch,
#    launch bounds. Every configuration validated after 4 time steps
#    against the CPU stepper.
# 2. Longer and shorter marches (nw) for the ring variant, which won 1.
# 3. Launch bounds that force 3 to 8 blocks of the winner onto an SM
#    (fewer registers, more warps: the profile says occupancy limits it).
# Resumable: what DB holds is not run again.
set -eu
db=$1
./fdtune sweep --db "$db" -f iso3dfd -r 8 -n 512 -q
./fdtune sweep --db "$db" -f iso3dfd -r 8 -n 512 -q -p lds=2 -p nw=64,192,256,512 \
	-p vec=2,4 -p bx=32,64 -p by=2,4,8 -p ypt=1,2 -p pad=0 -p ku=0,1 -p nt=1 -p pf=0,1 -p mb=0,2
./fdtune sweep --db "$db" -f iso3dfd -r 8 -n 512 -q -p lds=2 -p nw=128,192 -p vec=4 \
	-p bx=32 -p by=4 -p ypt=1 -p pad=0 -p ku=0 -p nt=1 -p pf=0,1 -p mb=3,4,6,8
