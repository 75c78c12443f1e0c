#!/bin/sh
# variant.sh DIR: copies templates/ into DIR and makes there issue 33's nt
# experiment (results/NOTES.md, "The plan's sources, counted"): xyz.m4 and
# iso3dfd.m4 store through fd_store_sel, which reads the knob from a
# module variable, fd_nt_on, at each store, instead of m4 choosing the store
# at generation. The variable starts at the configuration's nt, so each
# configuration runs as recorded, but the compiler cannot fold it: the
# kernel carries the branch a build shared by both nt would carry (the
# sources still differ by nt here; nothing is saved yet, only measured).
set -eu
d=${1:?usage: variant.sh DIR [device|constant]}
space=${2:-device}
case $space in device|constant) ;; *) echo "variant.sh: the space is device or constant, not $space" >&2; exit 2;; esac
mkdir -p "$d"
cp templates/* "$d"/
# the variable and the store that reads it, after the nontemporal stores
awk '
	{ print }
	/fd_store_nt\(double2 \*p, double2 v\) \{ __stcs/ { after = 1; next }
	after && /^#endif/ {
		print "/* experiment (results/h200/ntvar): nt read from the module at each store */"
		print "__'"$space"'__ int fd_nt_on = '"'"'m4_ifdef(`FDT_NT'"'"', `FDT_NT'"'"', `0'"'"')`;"
		print "template <class P, class V> __device__ __forceinline__ void fd_store_sel(P *p, V v)"
		print "{ if (fd_nt_on) fd_store_nt(p, v); else *p = v; }"
		after = 0
	}' templates/prelude.m4 > "$d/prelude.m4"
for f in xyz.m4 iso3dfd.m4; do
	awk '/^m4_define\(`FDT_STORE'"'"'/ {
		print "m4_define(`FDT_STORE'"'"', `fd_store_sel(($1), $2)'"'"')m4_dnl"; n++; next }
		{ print } END { if (n != 1) exit 1 }' "templates/$f" > "$d/$f"
done
grep -q fd_nt_on "$d/prelude.m4"
