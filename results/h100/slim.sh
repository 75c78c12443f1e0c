#!/bin/sh
# slim.sh: keeps results/h100/fdtune.db small enough to travel to the GPU
# machine with the working tree (64 MiB in all). An ok build's log is the
# compiler's report, whose registers, LDS, spills and compile time are
# columns of the builds table already; where it says no more than that (no
# stack frame, no spills, no warning), it is dropped (NULL). Every run and
# build row stays, and every log of a failed, spilling or warned build.
#   sh results/h100/slim.sh [DB]
set -eu
db=${1:-results/h100/fdtune.db}
before=$(wc -c < "$db")
sqlite3 "$db" "UPDATE builds SET log = NULL WHERE status = 'ok' AND log LIKE
 '%0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads%' AND log NOT LIKE
 '%warning%' AND log NOT LIKE '%error%'; VACUUM;"
echo "slim.sh: $db: $before -> $(wc -c < "$db") bytes"
