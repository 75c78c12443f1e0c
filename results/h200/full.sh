#!/bin/sh
# full.sh: issue 26 §1, the exhaustive searches on the H200 (device kind
# nvidia-h200), from the repository root after `make`:
#   sh results/h200/full.sh DB
# fdtune's copy calibration, then every configuration of the default space
# of xyz fp32 R = 4 and of iso3dfd fp32 R = 8 at 512^3, so that a transfer
# from the H100 can be judged against a full search (fdtune replay
# --other-devices). What DB already holds of them is not run again.
set -eu
db=${1:?usage: full.sh DB}
./fdtune devices --calibrate --db "$db"
./fdtune sweep -q --db "$db" -r 4 -n 512 -s exhaustive
./fdtune sweep -q --db "$db" -f iso3dfd -r 8 -n 512 -s exhaustive
./fdtune best --db "$db" --device H200 -n 512
