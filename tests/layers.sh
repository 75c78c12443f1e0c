#!/bin/sh
# layers.sh: fdtune's call graph between files, derived from the object
# files with nm (what each defines, what it needs), checked against two
# rules:
#   - no circle between files: no file needs, through others, a file that
#     needs it back;
#   - no arrow up the floors: runtime/ and gen/ (floor 0) need nothing of
#     db/ (floor 1), which needs nothing of tuner/ (floor 2). The floor of
#     an object is that of the first folder of its path under the build
#     directory (nvidia/ and amd/ hold runtime/rt.c's two builds).
# Prints every edge broken and exits 1 when a rule is; 0 otherwise, with a
# line that counts files and edges.
#   sh tests/layers.sh BUILD_DIR OBJECT...   the objects (paths under BUILD_DIR)
#   sh tests/layers.sh --syms FILE           lines "D|U OBJECT SYMBOL" instead
#                                            (the tests give it made-up graphs)
set -u
if [ "${1:-}" = --syms ]; then
	syms=${2:?usage: layers.sh --syms FILE}
else
	b=${1:?usage: layers.sh BUILD_DIR OBJECT... | --syms FILE}
	shift
	syms=$(mktemp)
	trap 'rm -f "$syms"' EXIT
	for o in "$@"; do
		f=${o#"$b"/}
		nm -g --defined-only "$o" | awk -v f="$f" 'NF == 3 && $2 ~ /^[TDBRCG]$/ { print "D", f, $3 }'
		nm -u "$o" | awk -v f="$f" '{ print "U", f, $NF }'
	done > "$syms" || { echo "layers.sh: nm failed" >&2; exit 2; }
fi
awk '
function floor(f,   t) {
	t = f; sub(/\/.*/, "", t)
	if (t == "runtime" || t == "nvidia" || t == "amd" || t == "gen") return 0
	if (t == "db") return 1
	if (t == "tuner") return 2
	return -1
}
$1 == "D" { def[$3] = $2; files[$2] = 1 }
$1 == "U" { need[++nu] = $2 " " $3; files[$2] = 1 }
END {
	bad = 0
	for (i = 1; i <= nu; i++) {
		split(need[i], a, " ")
		if (!(a[2] in def) || def[a[2]] == a[1]) continue
		e = a[1] " " def[a[2]]
		if (!(e in edge)) { edge[e] = a[2]; ne++ }
	}
	nf = 0
	for (f in files) { nf++; out[f] = 0 }
	for (e in edge) {
		split(e, a, " ")
		out[a[1]]++
		if (floor(a[1]) >= 0 && floor(a[2]) > floor(a[1])) {
			printf "layers: %s needs %s of %s, a floor above it\n", a[1], edge[e], a[2]
			bad = 1
		}
	}
	# peel the files that need no file left
	left = nf
	do {
		peeled = 0
		for (f in out)
			if (!(f in gone) && out[f] == 0) {
				gone[f] = 1; left--; peeled = 1
				for (e in edge) { split(e, a, " "); if (a[2] == f) out[a[1]]-- }
			}
	} while (peeled)
	# and those no file left needs: what remains lies on circles
	do {
		peeled = 0
		for (f in out) {
			if (f in gone) continue
			needed = 0
			for (e in edge) { split(e, a, " "); if (a[2] == f && !(a[1] in gone)) needed = 1 }
			if (!needed) { gone[f] = 1; left--; peeled = 1 }
		}
	} while (peeled && left > 0)
	if (left > 0) {
		bad = 1
		for (e in edge) {
			split(e, a, " ")
			if (!(a[1] in gone) && !(a[2] in gone))
				printf "layers: circle: %s needs %s of %s\n", a[1], edge[e], a[2]
		}
	}
	if (!bad)
		printf "layers: %d files, %d edges: no circle, no arrow up a floor\n", nf, ne
	exit bad
}' "$syms"
