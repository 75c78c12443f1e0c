#!/bin/sh
# online.sh: issue 39's table on one GPU: online tuning inside a user's time
# loop at a size the database has not seen, against an offline sweep of the
# default strategy at that size. On the GPU machine from the repository
# root, after `make fdtune build/libfdtune.a`:
#   sh results/h100/online/online.sh OUT GPU DB [SIZE] [STEPS]
# GPU labels the rows (h100, h200); DB is the database the program tunes
# from (results/h100/fdtune.db; on the H200, the H100's records only);
# SIZE 800x240x160, STEPS 2000. For each problem (iso3dfd R = 8, xyz R = 8,
# fp32):
#   offline  `fdtune sweep` of the problem at SIZE on a copy of DB (its
#            default strategy: transfer from the relatives), the best
#            exported (off/k.cu) and run by tests/online_main.cu for STEPS
#            steps: the loop with the offline-tuned kernel;
#   online   the kernel the program has without a sweep (`export
#            --all-sizes`: the nearest recorded size's), run for STEPS steps
#            with --online on another copy of DB (what it learns goes there).
# OUT/online.tsv gets two rows a problem, the online run made twice (run
# first: the program's first run, its compile cache empty; run again: the
# next run, from what the first kept): gpu, problem, size, steps_to_settle
# (the steps that tried candidates before the choice; the steps that
# waited for the compiles, running the fastest kernel so far, are
# detail.tsv's steps_waiting), time_vs_offline (the chosen kernel's time
# a step, timed alone after the loop, over the offline best's, timed so),
# overhead (the online
# loop's time over the offline loop's, less 1: the steps that waited for
# the compiles, the tries, the validations). OUT/PROBLEM-*.log keep every
# command's output, and OUT/detail.tsv the waiting steps and times.
set -u
out=${1:?usage: online.sh OUT GPU DB [SIZE] [STEPS]}
gpu=${2:?usage: online.sh OUT GPU DB [SIZE] [STEPS]}
db=${3:?usage: online.sh OUT GPU DB [SIZE] [STEPS]}
size=${4:-800x240x160}
steps=${5:-2000}
mkdir -p "$out"
nx=${size%%x*}; rest=${size#*x}; ny=${rest%%x*}; nz=${rest#*x}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=$(dirname "$(dirname "$NVCC")")
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
libs="build/libfdtune.a -lsqlite3 -L$CUDA/lib64 -Xlinker -rpath,$CUDA/lib64 -lnvrtc -ldl -lz -lgomp -lpthread -lm"
[ -s "$out/online.tsv" ] || printf 'gpu\tproblem\tsize\tsteps_to_settle\ttime_vs_offline\toverhead\trun\n' > "$out/online.tsv"
[ -s "$out/detail.tsv" ] || printf 'gpu\tproblem\tsize\tsteps\tsteps_waiting\tsteps_trying\toffline_loop_ms\tonline_loop_ms\toffline_after_ms\tonline_after_ms\tchosen\trun\n' > "$out/detail.tsv"
# build DIR FAMILY: online_main on the export in DIR
build() {
	cp tests/online_main.cu "$1/" &&
	"$NVCC" -arch=sm_$arch -O3 -DK_FAMILY="\"$2\"" -Idb -I"$1" "$1/online_main.cu" "$1/k.cu" \
		-o "$1/on" $libs
}
for p in "iso3dfd 8" "xyz 8"; do
	set -- $p
	f=$1 r=$2 w="$out/$f$r"
	mkdir -p "$w/off" "$w/def"
	cp "$db" "$w/sweep.db" && cp "$db" "$w/online.db" || exit 1
	echo "== $f R=$r $size on $gpu: offline sweep" >&2
	./fdtune sweep -f "$f" -r "$r" -n "$size" --db "$w/sweep.db" -q > "$w/sweep.log" 2>&1 || { cat "$w/sweep.log" >&2; exit 1; }
	./fdtune export --db "$w/sweep.db" -f "$f" -r "$r" -n "$size" --name k --out "$w/off" > "$w/export-off.log" 2>&1 &&
	./fdtune export --db "$db" -f "$f" -r "$r" --all-sizes --name k --out "$w/def" > "$w/export-def.log" 2>&1 &&
	build "$w/off" "$f" > "$w/build-off.log" 2>&1 && build "$w/def" "$f" > "$w/build-def.log" 2>&1 || { cat "$w"/*.log >&2; exit 1; }
	"$w/off/on" "$nx" "$ny" "$nz" "$steps" > "$w/offline.log" 2>&1 || { cat "$w/offline.log" >&2; exit 1; }
	lo=$(awk '/^loop:/ { print $4 }' "$w/offline.log"); ao=$(awk '/^after:/ { print $4 }' "$w/offline.log")
	# first: a user's first run, its compile cache empty; again: the next run,
	# from what the first learned (kept in online.db) and the cache it filled
	rm -rf "$w/cache"
	for run in first again; do
		FDTUNE_CACHE="$w/cache" "$w/def/on" "$nx" "$ny" "$nz" "$steps" --online "$w/online.db" \
			> "$w/online-$run.log" 2>&1 || { cat "$w/online-$run.log" >&2; exit 1; }
		ln=$(awk '/^loop:/ { print $4 }' "$w/online-$run.log"); an=$(awk '/^after:/ { print $4 }' "$w/online-$run.log")
		set -- $(awk '/^settled:/ { print $2, $4, $6 }' "$w/online-$run.log")
		s=${1:--1} wt=${2:--1} tr=${3:--1}
		chosen=$(sed -n 's/^settled: .* on //p' "$w/online-$run.log")
		printf '%s\t%s R=%s\t%s\t%s\t%s\t%s\t%s\n' "$gpu" "$f" "$r" "$size" "$tr" \
			"$(echo "$an $ao" | awk '{ printf "%.3f", $1 / $2 }')" \
			"$(echo "$ln $lo" | awk '{ printf "%.3f", $1 / $2 - 1 }')" "$run" >> "$out/online.tsv"
		printf '%s\t%s R=%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$gpu" "$f" "$r" "$size" \
			"$steps" "$wt" "$tr" "$lo" "$ln" "$ao" "$an" "${chosen:-none}" "$run" >> "$out/detail.tsv"
	done
	cp "$w"/sweep.log "$out/$f$r-sweep.log"
	cat "$w/offline.log" "$w/online-first.log" "$w/online-again.log" > "$out/$f$r-runs.log"
done
cat "$out/online.tsv"
