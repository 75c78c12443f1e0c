#!/bin/sh
# run.sh: issue 26's first H200 data, on the H200 machine (device kind
# nvidia-h200) from the repository root after `make`:
#   sh results/h200/run.sh DB
# fdtune's copy calibration on the H200, then guided searches (10% of each
# default space, the compile cache cold) of xyz fp32 R = 4 and R = 8 and
# iso3dfd fp32 R = 8 at 512^3, each from nothing: the H200 has no runs of
# its own, and the transfer search does not yet seed from another device.
set -eu
db=${1:?usage: run.sh DB}
./fdtune devices --calibrate --db "$db"
./fdtune sweep -q --db "$db" -r 4 -n 512 -s guided --evals 10
./fdtune sweep -q --db "$db" -r 8 -n 512 -s guided --evals 10
./fdtune sweep -q --db "$db" -f iso3dfd -r 8 -n 512 -s guided --evals 10
./fdtune best --db "$db"
