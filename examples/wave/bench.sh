#!/bin/sh
# bench.sh: the wave example at 512^3 for 500 steps on the first GPU, with
# the default two-layer model; the PNGs (wavefield.png, seismogram.png), the
# gnuplot script and the printed figures (wave.txt, with the kernel's own
# database figure first) go into DIR. The raw float32 data, 2 MB, are
# removed; run the example again to have them.
#   sh examples/wave/bench.sh results/h100/wave
set -eu
out=${1:?usage: sh examples/wave/bench.sh DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
make --no-print-directory -C "$root" build/example/wave
{
	echo "the kernel, as the database recorded it (the comment of build/example/wave_k.h):"
	sed -n '1,/\*\//p' "$root/build/example/wave_k.h"
	"$root/build/example/wave" -n 512 -t 500 --out "$out"
} | tee "$out/wave.txt"
rm -f "$out/seismogram.bin" "$out/slice.bin"
