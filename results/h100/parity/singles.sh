# singles.sh: sourced by gap.sh and placement.sh. The problems of $probs
# ("F:R:NXxNYxNZ" each) numbered from 1, each with a directory $tmp/N.
# build_singles DB: `fdtune export` of each problem's best in DB (the
#   H100's), built with nvcc into tests/export_main.cu as $tmp/N/ex, all in
#   parallel; waits for them.
# each_single FN: FN DIR F R SIZE for each problem whose program built, in
#   order; for one that did not, says so.
# each_prob FN: FN N F R SIZE for each problem, in order.
# fdtune_now DB LOG "PROBLEM" "PARAMS": fdtune's median (ms) and % of copy,
#   on this board, of the configuration PARAMS ("-p k=v ...") of PROBLEM
#   ("-f F -r R [--precision P] -n NXxNYxNZ"), swept alone into DB; what
#   fdtune says goes to LOG. Also sourced by parity.sh.
fdtune_now() {
	# shellcheck disable=SC2086
	./fdtune sweep -q --db "$1" -s exhaustive --no-race $3 $4 >>"$2" 2>&1 || return
	# shellcheck disable=SC2086
	./fdtune best --db "$1" --csv $3 2>>"$2" | tr -d '\r' |
		sed -n '2s/"\([^"]\|""\)*"//p' | awk -F, '{ printf "%.6f %.1f", $10, $12 }'
}
# params DIR: the -p flags of the configuration DIR's export (k.h) runs
params() {
	for kv in $(sed -n '5s/.*; \(vec=.*\)$/\1/p' "$1/k.h"); do printf -- '-p %s ' "$kv"; done
}
each_prob() {
	n=0
	for q in $probs; do
		n=$((n + 1))
		IFS=: read -r f r sz <<-EOF
		$q
		EOF
		"$1" "$n" "$f" "$r" "$sz"
	done
}
build_one() {
	mkdir -p "$tmp/$1"
	{ ./fdtune export --db "$sdb" --device H100 -f "$2" -r "$3" -n "$4" --out "$tmp/$1" \
		--name k >"$tmp/$1/err" 2>&1 &&
	  nvcc -O2 -arch=sm_90 -Xcompiler -fopenmp -I"$tmp/$1" tests/export_main.cu \
		"$tmp/$1/k.cu" -o "$tmp/$1/ex" -lgomp >>"$tmp/$1/err" 2>&1; } &
}
build_singles() {
	sdb=$1
	each_prob build_one
	wait
}
run_one() {
	if [ -x "$tmp/$2/ex" ]; then
		"$1" "$tmp/$2" "$3" "$4" "$5"
	else
		echo "$3:$4:$5: export or build FAILED: $(head -c 300 "$tmp/$2/err")"
	fi
}
each_single() {
	sfn=$1
	each_prob run_with
}
run_with() { run_one "$sfn" "$@"; }
