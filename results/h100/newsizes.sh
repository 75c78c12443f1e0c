#!/bin/sh
# newsizes.sh: issue 24, "a size the database has never seen must be served
# well too". At each of SIZES (sizes no sweep of xyz R = 4 fp32 had seen),
# the default problem's family and radius are swept twice: with fdtune's
# default strategy and budget (a copy of DB: there it transfers from the
# other sizes' bests, 2% of the space) and exhaustively (the whole default
# space, into a fresh database). Prints each sweep's summary and best, and
# the ratio of the two bests. On the GPU machine from the repository root
# after `make`:
#   OUT=DIR sh results/h100/newsizes.sh [DB]
# DIR receives exhaustive-SIZE.db and transfer-SIZE.log.
set -u
db=${1:-results/h100/fdtune.db}
out=${OUT:-/tmp/newsizes}
sizes=${SIZES:-384x384x192 800x240x160}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
for n in $sizes; do
	cp "$db" "$tmp/t.db"
	./fdtune sweep -q --db "$tmp/t.db" -n "$n" > "$out/transfer-$n.log" 2>&1
	echo "== default strategy at $n: $(grep -E 'configurations to run|strategy|transfer' "$out/transfer-$n.log" | head -2 | tr '\n' ' ')"
	grep -E 'configurations in|done' "$out/transfer-$n.log"
	./fdtune best --db "$tmp/t.db" -f xyz -r 4 -n "$n" --device H100 | tee "$tmp/t-$n"
done
for n in $sizes; do
	./fdtune sweep -q --db "$out/exhaustive-$n.db" -s exhaustive -n "$n" > "$out/exhaustive-$n.log" 2>&1
	echo "== exhaustive at $n"
	grep -E 'configurations to run|configurations in|done' "$out/exhaustive-$n.log"
	./fdtune best --db "$out/exhaustive-$n.db" -n "$n" | tee "$tmp/e-$n"
	# the two in ms, and the default strategy's best as % of the exhaustive
	# sweep's copy bandwidth (the copy of DB keeps its own calibration)
	t=$(awk 'NR == 2 { print $(NF - 3) }' "$tmp/t-$n")
	e=$(awk 'NR == 2 { print $(NF - 3), $(NF - 1) }' "$tmp/e-$n")
	[ -n "$t" ] && [ -n "$e" ] || { echo "$n: a sweep found no ok run"; continue; }
	echo "$n: $(echo "$t $e" | awk '{ if ($1 > 0) printf "default strategy %.4f ms, exhaustive %.4f ms (%.1f%% of copy): the default strategy at %.1f%%, %.1f points short", $1, $2, $3, $3 * $2 / $1, $3 - $3 * $2 / $1 }')"
done
