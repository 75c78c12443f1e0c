#!/bin/sh
# shipped.sh: what the repository ships of results/ holds (issue 34), from
# the repository root after `make` (and `make history` for the schema check
# of the histories):
#   sh tests/shipped.sh size              the tracked tree within TREE_MB (30)
#                                         MB, results/*/fdtune.db within
#                                         DBS_MB (15) MB together
#   sh tests/shipped.sh schema N          every results/*/fdtune.db, every
#                                         restored results/*/history.db and
#                                         every other database of results/ at
#                                         schema N (fdtune's newest)
#   sh tests/shipped.sh embed [DB ...]    every best of each DB (default:
#                                         every results/*/fdtune.db), exported
#                                         by $FDTUNE, embeds its measured build
#                                         (FDTUNE_TEMPLATES, when set, are the
#                                         templates export generates from;
#                                         EVERY=K: every K-th best only)
# Each failure is named on a line of its own; the last line counts them.
# Exit 1 when anything failed. FDTUNE is the fdtune to run (./fdtune);
# needs sqlite3 and git (size: the files git tracks).
set -u
fdtune=${FDTUNE:-./fdtune}
what=${1:?usage: shipped.sh size|schema N|embed [DB ...]}
shift
bad=0 n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "shipped.sh: $*"; bad=$((bad + 1)); }

case $what in
size)
	# bytes of the files git tracks, and of the shipped databases
	tree=$(git ls-files -z | xargs -0 stat -c %s 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
	dbs=$(stat -c %s results/*/fdtune.db | awk '{ s += $1 } END { print s + 0 }')
	n=2
	[ "$tree" -le $(( ${TREE_MB:-30} * 1000000 )) ] ||
		fail "the tracked tree is $tree bytes, over ${TREE_MB:-30} MB"
	[ "$dbs" -le $(( ${DBS_MB:-15} * 1000000 )) ] ||
		fail "results/*/fdtune.db are $dbs bytes together, over ${DBS_MB:-15} MB"
	echo "tree $tree bytes, shipped databases $dbs bytes"
	;;
schema)
	want=${1:?usage: shipped.sh schema N}
	for db in $(find results -name '*.db' | sort); do
		n=$((n + 1))
		v=$(sqlite3 "$db" 'pragma user_version' 2>&1)
		[ "$v" = "$want" ] || fail "$db is at schema $v, not $want (fdtune upgrade --db $db)"
	done
	for x in results/*/history.db.xz; do
		[ -e "${x%.xz}" ] || fail "${x%.xz} is not restored (make history)"
	done
	;;
embed)
	[ $# -gt 0 ] || set -- results/*/fdtune.db
	for db in "$@"; do
		# one line a best: device|family|radius|NXxNYxNZ|precision
		sqlite3 -separator '|' "$db" "select device, family, radius, nx || 'x' || ny || 'x' || nz,
			precision from v_best order by 1, 2, 3, 4, 5" | sed "s|^|$db\||" >> "$tmp/rows" ||
			fail "$db: cannot list its bests"
	done
	[ -s "$tmp/rows" ] || fail "no bests to export"
	# two at a time: each export compiles its kernel once
	# EVERY=K (1): every K-th best only (the sanitizers' run, where each
	# export is slow)
	i=0
	while IFS='|' read -r db dev f r sz pr; do
		i=$((i + 1))
		[ $(( (i - 1) % ${EVERY:-1} )) = 0 ] && echo "$i|$db|$dev|$f|$r|$sz|$pr"
	done < "$tmp/rows" > "$tmp/jobs"
	n=$(wc -l < "$tmp/jobs")
	# shellcheck disable=SC2016
	tr '\n' '\0' < "$tmp/jobs" | xargs -0 -P "${JOBS:-2}" -n 1 sh -c '
		IFS="|" read -r i db dev f r sz pr <<-EOF
		$2
		EOF
		mkdir -p "$0/$i"
		"$1" export --db "$db" --device "$dev" -f "$f" -r "$r" -n "$sz" --precision "$pr" \
			--out "$0/$i" --name k > "$0/$i/out" 2>&1
		echo "$?" > "$0/$i/rc"' "$tmp" "$fdtune"
	while IFS='|' read -r i db dev f r sz pr; do
		if [ "$(cat "$tmp/$i/rc")" != 0 ]; then
			fail "$db: $dev $f R=$r $sz $pr: export failed: $(head -c 300 "$tmp/$i/out")"
		elif ! grep -q 'its measured build embedded' "$tmp/$i/out"; then
			fail "$db: $dev $f R=$r $sz $pr: not embedded: $(grep -m1 'not embedded' \
				"$tmp/$i/k.h" | cut -c1-300)"
		fi
	done < "$tmp/jobs"
	;;
*)
	echo "usage: shipped.sh size|schema N|embed [DB ...]" >&2
	exit 2
	;;
esac
echo "shipped.sh $what: $n checked, $bad failed"
[ "$bad" -eq 0 ]
