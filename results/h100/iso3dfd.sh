#!/bin/sh
# iso3dfd.sh: the iso3dfd sweeps of issue 4 on the GPU machine, from the
# repository root after `make`:  sh results/h100/iso3dfd.sh DB
# The default space of the iso3dfd family (z register queue over nw planes,
# neighbours through L1 or an LDS xy tile, block shape, vec, padding, unroll,
# streaming stores) at R = 8 (16th order), 512^3, fp32; every configuration
# validated after 4 time steps against the CPU stepper. Resumable.
set -eu
db=$1
./fdtune sweep --db "$db" -f iso3dfd -r 8 -n 512 -q
