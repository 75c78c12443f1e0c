#!/bin/sh
# ab.sh DB: with spread.patch applied and fdtune built, replays a plan's first
# pass (-b 2 --start 1, 10 in flight) on each problem of DB with over 400
# configurations: uniform start (FDT_UNIFORM), then spread with K = 16, 64,
# 256 and all. Columns: mean best % of exhaustive, worst seed, seeds within 2%.
# DBs: xz -dkc results/h100/history.db.xz > h100.db (same for h200)
db=$1
sqlite3 $db "select family,radius,nx||'x'||ny||'x'||nz,precision from v_runs where status='ok' group by problem_id having count(distinct config_id)>400 order by family" |
while IFS='|' read f r sz p; do
  line="$f R=$r $sz $p"
  for K in U 16 64 256 100000; do
    if [ $K = U ]; then out=$(FDT_UNIFORM=1 ./fdtune replay --db $db -f $f -r $r -n $sz --precision $p -s guided -b 2 --start 1 --in-flight 10 --seeds 100 2>&1 | tail -1)
    else out=$(FDT_K=$K ./fdtune replay --db $db -f $f -r $r -n $sz --precision $p -s guided -b 2 --start 1 --in-flight 10 --seeds 100 2>&1 | tail -1); fi
    line="$line | $(echo "$out" | awk '{print $6, $7, $8}')"
  done
  echo "$line"
done
