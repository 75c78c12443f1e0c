#!/bin/sh
# multi.sh: the multi-GPU path of issue 5 (fdtune sweep --devices), run on
# a machine with two GPUs from the repository root after `make`:
#   sh results/h200x2/multi.sh DB
# 1. an xyz space shared out between GPUs 0 and 1, one worker each;
# 2. the test-only faulting and hanging kernels on both GPUs at once: each
#    fault or hang costs only its own worker, the other GPU goes on;
# 3. a GPU named twice is refused.
# Then `sqlite3 DB "select device_id, status, count(*) from runs group by 1, 2"`
# shows how the runs were shared out.
set -u
db=$1
rm -f "$db"
./fdtune devices
./fdtune sweep --db "$db" --devices 0,1 -r 4 -n 256 -p vec=2,4 -p lds=0,2 -p nw=64,256 -q
FDTUNE_TEST_BUGS=1 ./fdtune sweep --db "$db" --devices 0,1 -f bugs -r 2 -n 67x9x5 \
	-p bx=32,64,128,256 -p bug=0,1,2 --timeout 2 -q
./fdtune sweep --db "$db" --devices 0,0 -r 4 -n 256 -q
echo "exit status of --devices 0,0: $?"
./fdtune best --db "$db"
