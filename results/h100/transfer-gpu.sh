#!/bin/sh
# transfer-gpu.sh: the live transfer figures of issue 14 (results/h100/sizes.md)
# on the H100, from the repository root after `make`:
#   sh results/h100/transfer-gpu.sh OUTDB        (the sweeps, then the table)
#   sh results/h100/transfer-gpu.sh OUTDB table  (the table alone)
# then merge: ./fdtune merge --db results/h100/fdtune.db OUTDB
# xyz fp32 R = 8 and xyz fp64 R = 8 have guided 10% sweeps at the five sizes
# (sizes.sh). OUTDB starts as a copy of results/h100/fdtune.db, so that the
# transfer search at size S starts from the bests recorded at the other
# sizes and radii (never from S's own problem: tn_transfer.h), and
# --force makes it measure everything it proposes, even what the guided sweep
# at S recorded (without it, a sweep resumes and would take those runs as
# known). Each sweep's command line in the sweeps table says -s transfer, so
# its runs stay apart from the guided ones after the merge (merging the copy
# adds only the new runs). Each size reads what the sizes before it added.
set -eu
out=$1
[ -e "$out" ] || cp results/h100/fdtune.db "$out"
[ "${2:-}" = table ] ||
for p in fp32 fp64; do
	for n in 512 1000x300x129 640x480x400 256 128x128x64; do
		./fdtune sweep --db "$out" -q -f xyz -r 8 -n "$n" --precision "$p" -s transfer --evals 2 --force
	done
done
# The table of sizes.md (made where sqlite3 is, e.g. on the CPU machine after
# bringing OUTDB back, with "table"): each transfer sweep's best and evaluations against
# the best of every other run of the problem (the guided 10% sweep).
command -v sqlite3 >/dev/null || { echo "transfer-gpu.sh: no sqlite3 here: make the table where it is"; exit 0; }
sqlite3 "$out" <<'SQL'
.mode markdown
SELECT p.precision AS prec, p.nx || 'x' || p.ny || 'x' || p.nz AS size,
 count(*) AS evaluations,
 printf('%.1f%%', 100.0 * count(*) / max(s.n_space - s.n_pruned, 1)) AS "of the space",
 printf('%.0f', max(CASE WHEN r.status = 'ok' THEN r.gbs END)) AS "transfer GB/s",
 (SELECT CASE WHEN max(o.gbs) IS NULL THEN '-' ELSE printf('%.0f', max(o.gbs)) END
  FROM runs o JOIN sweeps os ON os.id = o.sweep_id
  WHERE o.problem_id = p.id AND o.status = 'ok' AND os.cmdline NOT LIKE '%-s transfer%')
  AS "guided 10% GB/s"
FROM runs r JOIN sweeps s ON s.id = r.sweep_id JOIN problems p ON p.id = r.problem_id
WHERE s.cmdline LIKE '%-s transfer%' AND p.family = 'xyz' AND p.radius = 8
GROUP BY p.id ORDER BY p.precision, p.nx * p.ny * p.nz DESC;
SQL
