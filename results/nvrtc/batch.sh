#!/bin/sh
# batch.sh: issue 33's compile suggestions measured on the CPU machine
# (results/NOTES.md "Issue 33, cold compiles: several kernels a program,
# ptxas's options"). Ten sources of the five-problem plan's families
# (fdtune gen: xyz R = 4 and 8, iso3dfd R = 8, vec 4 or 2, bx 32) are
# compiled by NVRTC with fdtune's options in one process, each 5 times
# (the first dropped): each alone, all ten in one program (each in a
# namespace of its own, the prelude once), an empty kernel with and
# without the prelude (a program's fixed cost), and each with
# -Xptxas=-O2 and -Xptxas=--allow-expensive-optimizations=false (cubins
# compared with the stock one's). From the repository root after `make`:
#   sh results/nvrtc/batch.sh [CUDA_HOME]
set -u
cu=${1:-/usr/local/cuda}
t=$(mktemp -d)
i=0
for spec in "xyz 8 -p vec=4 -p lds=2 -p pf=1 -p zu=2 -p ypt=2 -p by=4" \
	"xyz 8 -p vec=4 -p lds=1 -p pf=0 -p zu=1 -p ypt=4 -p by=2" \
	"xyz 8 -p vec=4 -p lds=2 -p pf=2 -p zu=4 -p ypt=2 -p by=8" \
	"xyz 4 -p vec=4 -p lds=1 -p pf=1 -p zu=2 -p ypt=2 -p by=4" \
	"xyz 4 -p vec=4 -p lds=2 -p pf=0 -p zu=1 -p ypt=4 -p by=4" \
	"iso3dfd 8 -p vec=4 -p lds=2 -p pf=1 -p ypt=1 -p by=4" \
	"iso3dfd 8 -p vec=2 -p lds=0 -p pf=1 -p ypt=2 -p by=4" \
	"iso3dfd 8 -p vec=4 -p lds=1 -p pf=0 -p ypt=1 -p by=8" \
	"iso3dfd 8 -p vec=4 -p lds=0 -p pf=0 -p ypt=1 -p by=2 -p mb=2" \
	"xyz 8 -p vec=4 -p lds=1 -p pf=1 -p zu=1 -p ypt=2 -p by=2 -p nt=1"; do
	set -- $spec
	f=$1 r=$2
	shift 2
	./fdtune gen -f "$f" -r "$r" -n 512 -p bx=32 "$@" > "$t/s$i.cu" || exit 1
	i=$((i + 1))
done
# the prelude ends at its #endif; every source's kernel goes into a namespace
end=$(grep -n '^#endif /\* FD_PRELUDE \*/' "$t/s0.cu" | cut -d: -f1)
for i in 0 1 2 3 4 5 6 7 8 9; do
	awk -v n=$i -v e="$end" 'NR <= e { if (n == 0) print; next }
		NR == e + 1 { print "namespace k" n " {" }
		{ gsub(/fdt_kernel/, "fdt_kernel_" n); print } END { print "}" }' "$t/s$i.cu"
done > "$t/all.cu"
head -n "$end" "$t/s0.cu" > "$t/pre.cu"
echo 'extern "C" __global__ void k(float *o) { o[threadIdx.x] = 1.f; }' | tee -a "$t/pre.cu" > "$t/e.cu"
cat > "$t/h.c" <<'HEOF'
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static char *rd(const char *fn)
{
	FILE *f = fopen(fn, "rb"); long n; char *s;
	if (!f) exit(1);
	fseek(f, 0, SEEK_END); n = ftell(f); rewind(f);
	s = malloc(n + 1);
	if (fread(s, 1, n, f) != (size_t)n) exit(1);
	s[n] = 0; fclose(f); return s;
}
/* h OPTION|- OUT FILE: the mean of 4 compiles (after one) to a cubin in OUT */
int main(int argc, char **argv)
{
	const char *o[4] = { "--std=c++17", "-arch=sm_90", "--no-cache", argv[1] };
	char *s = rd(argv[3]); double tot = 0; size_t n = 0; char *c = NULL;
	for (int k = 0; k < 5; k++) {
		nvrtcProgram p; double t;
		nvrtcCreateProgram(&p, s, "k.cu", 0, NULL, NULL);
		t = now();
		if (nvrtcCompileProgram(p, strcmp(argv[1], "-") ? 4 : 3, o)) return 1;
		t = now() - t;
		if (k) tot += t;
		nvrtcGetCUBINSize(p, &n); free(c); c = malloc(n); nvrtcGetCUBIN(p, c);
		nvrtcDestroyProgram(&p);
	}
	FILE *f = fopen(argv[2], "wb"); fwrite(c, 1, n, f); fclose(f);
	printf("%.3f\n", tot / 4);
	return 0;
}
HEOF
gcc -O2 -o "$t/h" "$t/h.c" -I"$cu/include" -L"$cu/lib64" -lnvrtc || exit 1
export LD_LIBRARY_PATH="$cu/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "a program's fixed cost: empty kernel $("$t/h" - "$t/e.o" "$t/e.cu") s, with the prelude $("$t/h" - "$t/p.o" "$t/pre.cu") s"
sum=0
for i in 0 1 2 3 4 5 6 7 8 9; do
	a=$("$t/h" - "$t/a$i.o" "$t/s$i.cu")
	b=$("$t/h" -Xptxas=-O2 "$t/b$i.o" "$t/s$i.cu")
	c=$("$t/h" -Xptxas=--allow-expensive-optimizations=false "$t/c$i.o" "$t/s$i.cu")
	echo "s$i: $a s; ptxas -O2 $b s ($(cmp -s "$t/a$i.o" "$t/b$i.o" && echo same || echo other) cubin); no expensive optimizations $c s ($(cmp -s "$t/a$i.o" "$t/c$i.o" && echo same || echo other) cubin)"
	sum=$(echo "$sum $a" | awk '{ print $1 + $2 }')
done
echo "ten programs: $sum s; one program of the ten: $("$t/h" - "$t/all.o" "$t/all.cu") s"
rm -rf "$t"
