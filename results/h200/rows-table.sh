#!/bin/sh
# rows-table.sh: issue 26 §1's table of issue 13's rows at 512^3 on the
# H200 beside the H100 (sqlite3 here, on CPU):
#   sh results/h200/rows-table.sh [H200DB] [H100DB]
# For each row: the H200's best (fdtune's median and % of the H200's copy),
# how many configurations the H200 ran for it and by which strategies (the
# sweeps' command lines), and the H100's best in % of its copy.
set -eu
h2=${1:-results/h200/fdtune.db}
h1=${2:-results/h100/fdtune.db}
. results/h100/highorder-rows.sh
echo "| problem | H200 best, ms | H200 % of copy | configurations run on the H200 | how | H100 best % of copy |"
echo "|---|---|---|---|---|---|"
for q in $ROWS; do
	IFS=: read -r f r pr <<-X
	$q
	X
	w="family = '$f' AND radius = $r AND precision = '$pr' AND nx = 512 AND ny = 512 AND nz = 512"
	b2=$(sqlite3 -separator ' ' "$h2" "SELECT printf('%.4f', median_ms), printf('%.1f', pct_copy)
		FROM v_best WHERE $w")
	n2=$(sqlite3 "$h2" "SELECT count(DISTINCT config_id) FROM v_runs WHERE $w")
	how=$(sqlite3 "$h2" "SELECT group_concat(k, ', ') FROM (SELECT DISTINCT CASE
		WHEN cmdline LIKE '%-s exhaustive%' THEN 'exhaustive'
		WHEN cmdline LIKE '%-s guided%' THEN 'guided' ELSE 'transfer' END AS k
		FROM sweeps s JOIN problems p ON p.id = s.problem_id WHERE $w)")
	b1=$(sqlite3 "$h1" "SELECT printf('%.1f', pct_copy) FROM v_best WHERE $w AND device LIKE '%H100%'")
	set -- $b2
	echo "| $f R=$r $pr | ${1:-?} | ${2:-?} | $n2 | $how | ${b1:-?} |"
done
