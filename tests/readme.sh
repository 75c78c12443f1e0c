#!/bin/sh
# readme.sh: every figure of README.md and docs/*.md that comes from the H100
# database (the history of every run, results/h100/history.db: `make history`)
# (and the H200's, in the table of both: H200_DB, results/h200/fdtune.db),
# computed again from it with the command the text writes beside the figure,
# and looked for in README.md and the docs/*.md beside it, read as one text
# (README first, then the pages in name order; line breaks read as spaces).
# A figure the text states otherwise, or whose command it no longer shows,
# fails the check, named with what the database says (issue 23).
# From the repository root, after `make`:
#   sh tests/readme.sh [README [DB]]
# README is README.md's path; the pages read are those of docs/ in its
# directory, so that a copy of the tree with one page changed is checked as
# the tree would be.
# FDTUNE is the fdtune to run (./fdtune); needs sqlite3. tests/t_readme.c runs
# it in `make test`.
# FIGURES_OUT=DIR also keeps each figure, as the text looked for and its
# name, in DIR (made), with DIR/done once every figure was computed;
# FIGURES_IN=DIR computes none and checks README against those kept in DIR
# (an error when DIR/done is missing): README changed, the database not.
set -eu
readme=${1:-README.md}
db=${2:-${HISTORY_DB:-results/h100/history.db}}
fdtune=${FDTUNE:-./fdtune}
tmp=$(mktemp -d)
# on the way out, the slow commands still running (see start) are stopped
trap 'for p in "$tmp"/*.pid; do [ ! -e "$p" ] || kill "$(cat "$p")" 2>/dev/null; done; rm -rf "$tmp"' EXIT
docs=$(dirname "$readme")/docs
cat "$readme" "$docs"/*.md | tr '\n' ' ' | tr -s ' ' > "$tmp/text"
bad=0 n=0

# holds TEXT WHAT: README or a page of docs/ holds TEXT (WHAT names the figure in a failure).
holds() {
	n=$((n + 1))
	if ! grep -qF -- "$1" "$tmp/text"; then
		echo "README.md and docs/ do not say \"$1\" ($2)"
		bad=$((bad + 1))
	fi
}
# says TEXT WHAT: holds, TEXT and WHAT kept in FIGURES_OUT as N.text and N.what
save=${FIGURES_OUT:-}
[ -z "$save" ] || { rm -rf "$save" && mkdir -p "$save"; }
says() {
	[ -z "$save" ] || { printf '%s' "$1" > "$save/$((n + 1)).text" &&
		printf '%s' "$2" > "$save/$((n + 1)).what"; }
	holds "$1" "$2"
}
if [ -n "${FIGURES_IN:-}" ]; then
	if [ ! -e "$FIGURES_IN/done" ]; then
		echo "readme.sh: $FIGURES_IN/done is missing: no figures kept there (FIGURES_OUT)" >&2
		exit 2
	fi
	while [ -e "$FIGURES_IN/$((n + 1)).text" ]; do
		holds "$(cat "$FIGURES_IN/$((n + 1)).text")" "$(cat "$FIGURES_IN/$((n + 1)).what")"
	done
	echo "readme.sh: $n figures checked, $bad wrong"
	[ "$bad" -eq 0 ]
	exit
fi

# The slow commands (replays over the history, the tables of issues 13 and
# 14) all start here, at once, each into its file in $tmp; `ready FILE`
# waits for FILE's and fails the check (set -e) where its command failed.
start() { f=$1; shift; "$@" > "$tmp/$f" & echo $! > "$tmp/$f.pid"; }
ready() { wait "$(cat "$tmp/$1.pid")" && rm "$tmp/$1.pid"; }
start ho sh "$(dirname "$0")/../results/h100/highorder-table.sh" "$db"
start st "$fdtune" best --db "$db" --strategies -n 512 --precision fp32
start g "$fdtune" replay --db "$db" -f xyz -r 4 -n 512 -s guided
start tx "$fdtune" replay --db "$db" -f xyz -r 4 --each-size -s transfer
start ti "$fdtune" replay --db "$db" -f iso3dfd -r 8 --each-size -s transfer
start t128 "$fdtune" replay --db "$db" -f xyz -r 4 -n 128x128x64 -s transfer
start sz env BEFORE=2026-11-23T14:50:00Z FDTUNE="$fdtune" sh "$(dirname "$0")/../results/h100/sizes-table.sh" "$db"
# issue 14's database: the history before 14:50, and its four replays
cp "$db" "$tmp/i14.db"
sqlite3 "$tmp/i14.db" "DELETE FROM runs WHERE created >= '2026-11-23T14:50:00Z'"
start ox "$fdtune" replay --db "$tmp/i14.db" -f xyz -r 4 --each-size -s transfer
# issue 14's figure, of iso3dfd's whole space as recorded then
start oi "$fdtune" replay --db "$tmp/i14.db" -f iso3dfd -r 8 --each-size -s transfer --all-recorded
start og "$fdtune" replay --db "$tmp/i14.db" -f xyz -r 4 --each-size -s guided -b 2
start o128 "$fdtune" replay --db "$tmp/i14.db" -f xyz -r 4 -n 128x128x64 -s transfer
q() { sqlite3 "$db" "$1"; }
# best F R N PREC: "ms GB/s %copy" of fdtune best's one row
best() {
	"$fdtune" best --db "$db" -f "$1" -r "$2" -n "$3" --precision "$4" |
		awk 'NR == 2 { print $(NF - 3), $(NF - 2), $(NF - 1) }'
}
# ho PROBLEM: "before → after" of highorder-table.sh's 512³ row of PROBLEM
ho() {
	awk -F'|' -v p="$1" '{ gsub(/^ +| +$/, "", $2); gsub(/ /, "", $4); gsub(/ /, "", $5) }
		$2 == p && $3 ~ /512x512x512/ { print $4 " → " $5 }' "$tmp/ho"
}
# replay's table of the held-out sizes: the gap column, by size
gaps() { awk -F'|' '$4 ~ /transfer|guided/ { gsub(/ /, ""); print $2, $8 }' "$1"; }

# the results of the H100
says "the copy bandwidth fdtune measured is $(q "select printf('%.0f', copy_gbs) from devices") GB/s" copy
says "sqlite3 \$D \"select printf('%.0f', copy_gbs) from devices\"" "copy's command"
set -- $(best xyz 4 512 fp32)
says "runs at $2 GB/s, $3% of copy ($1 ms) (\`./fdtune best --db \$D -f xyz -r 4 -n 512 --precision fp32\`)" "best xyz R = 4"
set -- $(q "select count(distinct config_id), count(*), sum(status = 'ok') from v_runs where
	family = 'xyz' and radius = 4 and nx = 512 and ny = 512 and nz = 512 and precision = 'fp32'" | tr '|' ' ')
[ "$2" = "$3" ] && ok="all ok" || ok="$3 ok"
says "all $1 configurations measured at that size were validated ($2 runs, $ok" "validated"
set -- $(q "select count(*), sum(status = 'ok'), printf('%.1f', max(gbs)), printf('%.1f', max(pct_copy))
	from runs where sweep_id = 1" | tr '|' ' ')
[ "$1" = "$2" ] && ok="all ok" || ok="$2 ok"
says "ran $1 configurations, $ok, the best at $3 GB/s, $4% of copy" "sweep 1"
says "from runs where sweep_id = 1\"" "sweep 1's command"
set -- $(q "select printf('%.1f', gbs), printf('%.1f', pct_copy) from runs where sweep_id = 2" | tr '|' ' ')
says "runs at $1 GB/s, $2% (\`sqlite3 \$D \"select printf('%.1f', gbs), printf('%.1f', pct_copy) from runs where sweep_id = 2\"\`)" seed
x=$(best x 4 512 fp32 | cut -d' ' -f3)
y=$(best y 4 512 fp32 | cut -d' ' -f3)
z=$(best z 4 512 fp32 | cut -d' ' -f3)
says "(today x $x%, y $y%, z $z% of copy at R = 4, 512³, fp32: \`./fdtune best --db \$D -r 4 -n 512 --precision fp32\`)" "x, y, z"
iso="family = 'iso3dfd' and radius = 8 and nx = 512 and precision = 'fp32' and status = 'ok'"
set -- $(q "select printf('%.1f', max(pct_copy)), printf('%.0f', max(mcells) / 1000) from v_runs
	where $iso and created < '2026-11-23T14:40:00Z'" | tr '|' ' ')
says "($1% of copy at 16 B a point, $2 Gpts/s, before issue 13:" "iso3dfd before"
set -- $(q "select printf('%.1f', max(pct_copy)), printf('%.0f', max(mcells) / 1000) from v_current
	where $iso" | tr '|' ' ')
says "$1%, $2 Gpts/s since \`highorder.md\`'s \`wr\`" "iso3dfd after"
says "where the database records $(q "select printf('%.4f', min(median_ms)) from v_current where $iso") ms a step, $2 Gpts/s (\`./fdtune best --db results/h100/fdtune.db -f iso3dfd -r 8 -n 512 --precision fp32\`" "iso3dfd in the worked example"

# before and after issue 13 (highorder-table.sh)
ready ho
says "(xyz fp32 R = 4: $(ho 'xyz fp32 R = 4')%, R = 5: $(ho 'xyz fp32 R = 5')%, R = 8: $(ho 'xyz fp32 R = 8')%; fp64 R = 8: $(ho 'xyz fp64 R = 8')%)" "highorder, xyz"
says "iso3dfd's \`wr\` ($(ho 'iso3dfd fp32 R = 8')%)" "highorder, iso3dfd"
says "(R = 4: dxy $(ho 'dxy fp32 R = 4')%, dxz $(ho 'dxz fp32 R = 4')%, dyz $(ho 'dyz fp32 R = 4')%;" "highorder, mixed"
says "sh results/h100/highorder-table.sh" "highorder's command"

# fused against three passes
ready st
r4=$(awk '$(NF - 8) == 4 { print $(NF - 1) }' "$tmp/st")
r8=$(awk '$(NF - 8) == 8 { print $(NF - 1) }' "$tmp/st")
says "the fused kernel is $r4 faster than three passes at R = 4 and $r8 at R = 8, 512³, fp32 (\`./fdtune best --db results/h100/history.db --strategies -n 512 --precision fp32\`" strategies

# replays: guided, and transfer with each size held out
ready g
set -- $(awk '/^guided/ { print $(NF - 2), $NF, $(NF - 3) }' "$tmp/g")
says "within 2% of the exhaustive best in $1 of $2 seeds with 10% of the evaluations, $3% of it in the worst seed (\`./fdtune replay --db results/h100/history.db -f xyz -r 4 -n 512 -s guided\`" guided
ready tx
ready ti
says "xyz R = 4 at 128x128x64 is $(gaps "$tmp/tx" | awk '$1 == "128x128x64" { print $2 }')% off" "transfer at 128x128x64"
says "the other sizes of xyz within $(gaps "$tmp/tx" | awk '$1 != "128x128x64" && $2 > m { m = $2 } END { print m }')%, iso3dfd within $(gaps "$tmp/ti" | awk '$2 > m { m = $2 } END { print m }')%" "transfer today"
ready t128
says "$(awk '/ seeds from/ { print $1 " seeds, " $9 }' "$tmp/t128") of them in this space;" "seeds at 128x128x64"
says "sqlite3 /tmp/i14.db \"DELETE FROM runs WHERE created >= '2026-11-23T14:50:00Z'\"" "issue 14's database"
ready ox
ready oi
ready og
ready o128
says "within $(cat "$tmp/ox" "$tmp/oi" | gaps /dev/stdin | awk '$2 > m { m = $2 } END { print m }')% of the exhaustive best with 2% of the space at all five sizes" "transfer then"
says "guided with the same budget was $(gaps "$tmp/og" | sort -n -k2 | awk 'NR == 1 { a = $2 } { b = $2 } END { printf "%.1f-%.1f", a, b }')% off on average for xyz" "guided then"
says "(within $(cat "$tmp/ox" "$tmp/oi" | gaps /dev/stdin | awk '$2 > m { m = $2 } END { print m }')% of the exhaustive best with 2% of the space;" "transfer then, results"
says "$(awk '/ seeds from/ { print $1 " and " $9 }' "$tmp/o128") on the database of issue 14" "seeds then"

# the --all-sizes rule and the 512³ winner elsewhere, as issue 14 left them
ready sz
loss=$(awk -F'|' 'NF == 7 && $6 ~ /%/ { gsub(/[ %]/, "", $6); if ($6 + 0 > m) { m = $6 + 0; s = $3 } }
	END { gsub(/ /, "", s); print m "% at " s }' "$tmp/sz")
says "(up to $loss, as issue 14 left the database" "the 512³ winner elsewhere"
pick() { awk -F'|' -v p="$1" -v s="$2" 'NF == 9 { gsub(/^ +| +$/, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $8) }
	NF == 9 && $2 == p && $3 == s { print $8 "x" }' "$tmp/sz"; }
says "($(pick 'xyz fp32 R = 4' 128x128x64) for xyz R = 4 at 128x128x64, $(pick 'iso3dfd fp32 R = 8' 256x256x256) for iso3dfd at 256³:" "the --all-sizes rule"
says "BEFORE=2026-11-23T14:50:00Z sh results/h100/sizes-table.sh" "the rule's command"

# the table of both GPUs (issue 26): each cell from its own database
h200=${H200_DB:-$(dirname "$0")/../results/h200/fdtune.db}
# cell DB F R PREC: "%copy (ms ms)" of fdtune best's one row
cell() {
	"$fdtune" best --db "$1" -f "$2" -r "$3" -n 512 --precision "$4" |
		awk 'NR == 2 { print $(NF - 1) " (" $(NF - 3) " ms)" }'
}
says "| copy bandwidth, GB/s | $(q "select printf('%.0f', copy_gbs) from devices") | $(sqlite3 "$h200" "select printf('%.0f', copy_gbs) from devices") |" "the table's copies"
for p in "xyz 4 fp32" "xyz 8 fp32" "xyz 8 fp64" "iso3dfd 8 fp32"; do
	set -- $p
	says "| $1 $3 R = $2 | $(cell "$db" $1 $2 $3) | $(cell "$h200" $1 $2 $3) |" "the table's $1 $3 R = $2"
done
says "\`./fdtune best --db \$D -f F -r R -n 512 --precision P\` (\`--db \$H\` for the H200)" "the table's command"

# energy (issue 36): energy.sql's rows of time-best against energy-best
sqlite3 "$db" < "$(dirname "$0")/../results/h100/energy/energy.sql" > "$tmp/energy"
en() { awk -F'|' -v OFS='|' -v p="$1" '{ for (i = 2; i < NF; i++) gsub(/^ +| +$/, "", $i) } $2 == p' \
	"$tmp/energy"; }
IFS='|' read -r _ _ tj _ tw ej _ ew sv ls _ _ _ <<EOF
$(en 'xyz R=4 512x512x512')
EOF
says "for xyz R = 4 the energy-best draws $ew W and spends $ej J/Gpt against the time-best's $tw W and $tj J/Gpt, $sv less energy for $ls more time;" "energy, xyz R = 4"
IFS='|' read -r _ _ _ _ _ _ _ _ sv _ _ sp _ <<EOF
$(en 'iso3dfd R=8 512x512x512')
EOF
says "for iso3dfd R = 8 the two differ by $sv, under the $sp spread of their 3 processes." "energy, iso3dfd R = 8"
says "(\`sqlite3 \$D < results/h100/energy/energy.sql\`," "energy's command"

# the default space: counted by a compile-only sweep for sm_90 (NVIDIA builds)
if "$fdtune" devices 2>/dev/null | grep -q "platform nvidia"; then
	"$fdtune" sweep --compile-only --arch sm_90 --max-configs 1 -j 1 --db "$tmp/n.db" > "$tmp/n" 2>&1 || true
	set -- $(sed -n 's/.*: \([0-9]*\) configurations to run, 0 already recorded.*, \([0-9]*\) pruned.*/\1 \2/p' "$tmp/n")
	says "the \`xyz\` family: $(($1 + $2)) configurations, of which $1 pass the constraints of an H100" "default space"
	says "./fdtune sweep --compile-only --arch sm_90 --max-configs 1 --db /tmp/n.db" "default space's command"
fi

[ -z "$save" ] || : > "$save/done"
echo "readme.sh: $n figures checked, $bad wrong"
[ "$bad" -eq 0 ]
