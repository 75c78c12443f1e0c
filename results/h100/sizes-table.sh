#!/bin/sh
# sizes-table.sh: the tables of results/h100/sizes.md on the sweeps of
# sizes.sh, from the repository root after `make` (CPU only: sqlite3 and
# fdtune):  sh results/h100/sizes-table.sh [DB] > /tmp/part.md
# or, to rewrite its part of sizes.md in place (between the markers, the
# rest of the file kept):  sh results/h100/sizes-table.sh DB --update
#  Per problem: for xyz fp32 R = 4 and R = 8, iso3dfd fp32 R = 8 and xyz
#    fp64 R = 8 at each recorded size, the best run tuned at that size, the
#    figure there of the configuration that won at 512^3, and the loss.
#  The --all-sizes rule, left out in turn: each size S is removed from a
#    copy of the database and `fdtune export --all-sizes --which S` picks
#    from the other four with the rule of templates/fdt_rule.h; the picked
#    configuration's figure at S (recorded: every configuration ran at every
#    size in the exhaustive sweeps; the guided ones may lack it) against the
#    512^3 winner's figure at S.
# Configurations are matched across sizes by their values, a parameter a
# record lacks taking its family's default (fdtune gen --list), as export
# does.
set -eu
db=${1:-results/h100/fdtune.db}
mode=${2:-}
fdtune=${FDTUNE:-./fdtune}
dev=H100
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# BEFORE=TIME: only the runs recorded before TIME (UTC, as runs.created), e.g.
# the database as issue 14 left it: BEFORE=2026-11-23T14:50:00Z (issue 13's
# sweeps came after, and their new 512^3 winners were not run at every size)
if [ -n "${BEFORE:-}" ]; then
	cp "$db" "$tmp/before.db"
	sqlite3 "$tmp/before.db" "DELETE FROM runs WHERE created >= '$BEFORE'"
	db=$tmp/before.db
fi
problems="xyz:4:fp32 xyz:8:fp32 iso3dfd:8:fp32 xyz:8:fp64"

# A copy with table keyed(run_id, problem_id, family, radius, precision, nx,
# ny, nz, key, ms, gbs): key is every parameter of the configuration, those
# its JSON leaves out at their defaults, in the order of fdtune gen --list.
cp "$db" "$tmp/k.db"
{
	echo "CREATE TABLE dflt(family, name, value, pos);"
	"$fdtune" gen --list | awk '
		/^[a-z0-9]+:/ { fam = substr($1, 1, length($1) - 1); pos = 0; next }
		{ split($NF, v, ","); printf "INSERT INTO dflt VALUES(%c%s%c, %c%s%c, %d, %d);\n",
		  39, fam, 39, 39, $1, 39, v[1], pos++ }'
	cat <<-'EOF'
	CREATE TABLE keyed AS SELECT r.run_id, r.problem_id, r.family, r.radius, r.precision,
	  r.nx, r.ny, r.nz, r.median_ms AS ms, r.gbs,
	  (SELECT group_concat(name || '=' || v, ' ') FROM
	    (SELECT d.name, coalesce(json_extract(r.params, '$.' || d.name), d.value) AS v
	     FROM dflt d WHERE d.family = r.family ORDER BY d.pos)) AS key
	  FROM v_runs r WHERE r.status = 'ok' AND r.median_ms IS NOT NULL AND r.device LIKE '%H100%'
	  AND ((r.family = 'xyz' AND r.radius IN (4, 8)) OR (r.family = 'iso3dfd' AND r.radius = 8));
	CREATE INDEX keyed_i ON keyed(family, radius, precision, nx, ny, nz, key);
	CREATE VIEW best AS SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY family, radius,
	  precision, nx, ny, nz ORDER BY ms, run_id) AS rk FROM keyed) WHERE rk = 1;
	EOF
} | sqlite3 "$tmp/k.db"

q() { sqlite3 -separator ' ' "$tmp/k.db" "$1"; }

# fig F R P NX NY NZ KEY: the GB/s of configuration KEY at that size, or -
fig() {
	v=$(q "SELECT CASE WHEN max(gbs) IS NOT NULL THEN printf('%.0f', max(gbs)) END FROM keyed WHERE family = '$1' AND radius = $2 AND
	       precision = '$3' AND nx = $4 AND ny = $5 AND nz = $6 AND key = '$7'")
	echo "${v:-not run}"
}

# each ROW: for every problem and each of its recorded sizes, ROW F R P W X Y Z B
# (W the key of the 512^3 winner, B the tuned best's GB/s at X x Y x Z)
each() {
	for p in $problems; do
		IFS=: read -r f r pr <<-EOF
		$p
		EOF
		w=$(q "SELECT key FROM best WHERE family = '$f' AND radius = $r AND precision = '$pr'
		       AND nx = 512 AND ny = 512 AND nz = 512")
		q "SELECT nx, ny, nz, printf('%.0f', gbs) FROM best WHERE family = '$f' AND radius = $r
		   AND precision = '$pr' ORDER BY nx * ny * nz" |
		while read -r x y z b; do
			"$1" "$f" "$r" "$pr" "$w" "$x" "$y" "$z" "$b"
		done
	done
}

# loss_row: the Per problem table's row (see each)
loss_row() {
	f=$1 r=$2 pr=$3 w=$4 x=$5 y=$6 z=$7 b=$8
	a=$(fig "$f" "$r" "$pr" "$x" "$y" "$z" "$w")
	loss=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a + 0 > 0) printf "%.0f%%", 100 * (b - a) / b; else print "-" }')
	echo "| $f $pr R = $r | ${x}x${y}x${z} | $b | $a | $loss |"
}

# rule_row: the left-out table's row (see each)
rule_row() {
	f=$1 r=$2 pr=$3 w=$4 x=$5 y=$6 z=$7 b=$8
	cp "$db" "$tmp/l.db"
	sqlite3 "$tmp/l.db" "DELETE FROM runs WHERE problem_id IN (SELECT id FROM problems
	  WHERE family = '$f' AND radius = $r AND precision = '$pr' AND nx = $x AND ny = $y
	  AND nz = $z)"
	line=$("$fdtune" export --db "$tmp/l.db" -f "$f" -r "$r" --precision "$pr" \
		--device "$dev" --all-sizes --which "${x}x${y}x${z}")
	from=$(echo "$line" | sed 's/.*size \([0-9x]*\): .*/\1/')
	# the printed configuration, its parameters left out (a late one at its
	# first value) filled in from the defaults, as the keys of keyed are
	json=$(echo "$line" | sed 's/.*size [0-9x]*: //; s/\([a-z0-9_]*\)=\(-\{0,1\}[0-9]*\)/"\1":\2/g; s/ /,/g')
	key=$(q "SELECT group_concat(name || '=' || v, ' ') FROM (SELECT d.name,
	       coalesce(json_extract('{$json}', '$.' || d.name), d.value) AS v FROM dflt d
	       WHERE d.family = '$f' ORDER BY d.pos)")
	a=$(fig "$f" "$r" "$pr" "$x" "$y" "$z" "$key")
	c=$(fig "$f" "$r" "$pr" "$x" "$y" "$z" "$w")
	ratio=$(awk -v a="$a" -v c="$c" 'BEGIN { if (a + 0 > 0 && c + 0 > 0) printf "%.2f", a / c; else print "-" }')
	echo "| $f $pr R = $r | ${x}x${y}x${z} | $from | $a | $c | $b | $ratio |"
}

part() {
	echo '<!-- sizes-table.sh: begin (generated; run it again to update) -->'
	echo '## Per problem'
	echo
	echo 'The best run tuned at each size against the configuration that won at 512³, run at'
	echo 'that size (GB/s, H100; loss = how much slower the 512³ configuration is).'
	echo
	echo '| problem | size | tuned at size | 512³-tuned config | loss |'
	echo '|---|---|---|---|---|'
	each loss_row
	echo
	echo '## The --all-sizes rule, left out in turn'
	echo
	echo 'Each recorded size S in turn is removed from a copy of the database, and'
	echo '`fdtune export --all-sizes --which S` picks from the other four sizes with the rule'
	echo 'of `templates/fdt_rule.h` (nearest in log2 of nx, ny and nz, nz counted twice, among'
	echo 'the configurations that can launch the grid). Its configuration is then looked up at'
	echo 'S in the full database and compared with the single 512³ export (the 512³ winner) at'
	echo 'S. GB/s on the H100; "not run" where a guided sweep did not run that configuration at'
	echo 'S (only the 512³ winner was run at every size of the guided problems). At S = 512³'
	echo 'the 512³ export is the tuned best, so the rule can only lose there.'
	echo
	echo '| problem | S (left out) | picked from size | picked config at S | 512³ export at S | tuned best at S | picked / 512³ |'
	echo '|---|---|---|---|---|---|---|'
	each rule_row
	echo '<!-- sizes-table.sh: end -->'
}

if [ "$mode" = --update ]; then
	md=results/h100/sizes.md
	part > "$tmp/part.md"
	[ -f "$md" ] || printf '# Tuning for the sizes users run (issue 14), H100\n\n' > "$md"
	if grep -q '^<!-- sizes-table.sh: begin' "$md"; then
		awk -v f="$tmp/part.md" '
			/^<!-- sizes-table.sh: begin/ { while ((getline l < f) > 0) print l; skip = 1; next }
			/^<!-- sizes-table.sh: end/ { skip = 0; next }
			!skip' "$md" > "$tmp/new.md"
	else
		cat "$md" "$tmp/part.md" > "$tmp/new.md"
	fi
	cp "$tmp/new.md" "$md"
else
	part
fi
